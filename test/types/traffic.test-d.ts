import { describe, expectTypeOf, it } from 'vitest';
import {
  startMockProxy,
  startMockReplay,
  type DriftFinding,
  type MockProxy,
  type MockReplay,
  type ReplayMiss,
} from '../../src/mock/index.js';
import type { TrafficHealth } from '../../src/mock/traffic/control.js';

describe('the proxy and replay types', () => {
  it('takes a target and a recording, and gives the drift report', () => {
    expectTypeOf(startMockProxy).parameter(0).toHaveProperty('target').toEqualTypeOf<string>();
    expectTypeOf(startMockProxy).returns.resolves.toEqualTypeOf<MockProxy>();
    expectTypeOf(startMockReplay).returns.resolves.toEqualTypeOf<MockReplay>();
    expectTypeOf<MockProxy['drift']>().returns.toEqualTypeOf<{ findings: DriftFinding[] }>();
    expectTypeOf<DriftFinding['kind']>().toEqualTypeOf<
      'missing' | 'unexpected' | 'mismatched' | 'status' | 'error-code' | 'header'
    >();
    expectTypeOf<DriftFinding['direction']>().toEqualTypeOf<'request' | 'response'>();
    expectTypeOf<ReplayMiss['differing']>().toEqualTypeOf<readonly string[]>();
    expectTypeOf<TrafficHealth['mode']>().toEqualTypeOf<'proxy' | 'replay'>();
    // @ts-expect-error: a proxy needs its target
    void startMockProxy({ variant: 2 });
    // @ts-expect-error: the variant is 1 or 2
    void startMockProxy({ target: 'https://api.example.com/api/v1', variant: 3 });
  });
});
