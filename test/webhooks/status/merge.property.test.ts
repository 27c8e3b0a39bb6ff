import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStatusTracker } from '../../../src/webhooks/index.js';
import { applyAll, newsInTwoOrders } from '../../helpers/status-events.js';

describe('the merge rule (memory store)', () => {
  it('any order of any subset of a message news, repeats included, ends in the same record, never moving back', async () => {
    await fc.assert(
      fc.asyncProperty(newsInTwoOrders('msg_p'), async ([first, second]) => {
        const [a, b] = [createStatusTracker(), createStatusTracker()];
        await applyAll(a, first);
        await applyAll(b, second);
        expect(await a.get('msg_p')).toEqual(await b.get('msg_p'));
      }),
      { numRuns: 300 },
    );
  });
});
