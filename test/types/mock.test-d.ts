import { describe, expectTypeOf, it } from 'vitest';
import { connectMock, MockService, type MockControl, type StoredMessage } from '../../src/mock/index.js';

describe('setMessageStatus types', () => {
  it('takes a status a sent message moves on to, and a failure its error; resolves with the message', () => {
    const control: MockControl = connectMock('http://127.0.0.1:4010/api/v1');
    expectTypeOf(control.setMessageStatus('msg_1', { status: 'read' })).toEqualTypeOf<Promise<StoredMessage>>();
    expectTypeOf(
      new MockService().setMessageStatus('msg_1', { status: 'failed', error: { code: '131026', message: 'Gone' } }),
    ).toEqualTypeOf<StoredMessage>();
    // @ts-expect-error: a status never moves back to sent
    void control.setMessageStatus('msg_1', { status: 'sent' });
    // @ts-expect-error: an error has a code and words
    void control.setMessageStatus('msg_1', { status: 'failed', error: { code: 'X' } });
    expectTypeOf<StoredMessage['error']>().toEqualTypeOf<{ code: string; message: string } | undefined>();
  });
});

describe('clock types', () => {
  it('stops, starts and advances the clock, each resolving with the time', () => {
    const control: MockControl = connectMock(new MockService());
    expectTypeOf(control.clock.stop()).toEqualTypeOf<Promise<{ now: string }>>();
    expectTypeOf(control.clock.start()).toEqualTypeOf<Promise<{ now: string }>>();
    expectTypeOf(control.clock.advance).parameters.toEqualTypeOf<[ms: number]>();
    // @ts-expect-error: stop takes nothing
    void control.clock.stop(1000);
  });
});
