import { Redis } from 'ioredis';
import { describe, expectTypeOf, it } from 'vitest';
import { Variant1Client, Variant2Client, type Message } from '../../src/index.js';
import { redisStatusStore } from '../../src/redis/index.js';
import {
  createStatusTracker,
  createWebhookHandler,
  memoryStatusStore,
  type MessageFailedError,
  type StatusTimeoutError,
  webhookMiddleware,
  type BizMsgError,
  type StatusRecord,
  type StatusStore,
  type StatusSummary,
  type StatusTracker,
  type TrackedStatus,
  type WebhookEvent,
} from '../../src/webhooks/index.js';

describe('status tracker types', () => {
  it('takes what a send resolves with, and answers with records, all async', () => {
    const tracker = createStatusTracker();
    expectTypeOf(tracker).toEqualTypeOf<StatusTracker>();
    expectTypeOf<Message>().toExtend<Parameters<StatusTracker['track']>[0]>();
    expectTypeOf(tracker.track({ id: 'msg_1' })).toEqualTypeOf<Promise<StatusRecord>>();
    expectTypeOf(tracker.apply).parameter(0).toEqualTypeOf<WebhookEvent>();
    expectTypeOf(tracker.apply).returns.toEqualTypeOf<Promise<StatusRecord | undefined>>();
    expectTypeOf(tracker.get('msg_1')).toEqualTypeOf<Promise<StatusRecord | undefined>>();
    expectTypeOf(tracker.waitFor('msg_1', 'final')).toEqualTypeOf<Promise<StatusRecord>>();
    expectTypeOf(tracker.summary(['msg_1'])).toEqualTypeOf<Promise<StatusSummary>>();
    expectTypeOf<StatusRecord['status']>().toEqualTypeOf<TrackedStatus>();
    expectTypeOf<TrackedStatus>().toEqualTypeOf<'sent' | 'delivered' | 'read' | 'failed'>();
    expectTypeOf<StatusSummary>().toEqualTypeOf<
      {
        sent: number;
        delivered: number;
        read: number;
        failed: number;
        unknown: number;
      } & { total: number }
    >();
    // @ts-expect-error not a status waitFor knows
    void tracker.waitFor('msg_1', 'sent');
    // @ts-expect-error a message needs its id
    void tracker.track({ to: '4915112345678' });
  });

  it('refreshes from Variant 1 only, which has a status endpoint', () => {
    const tracker = createStatusTracker();
    void tracker.refresh('msg_1', new Variant1Client({ apiKey: 'k', baseUrl: 'https://x.test/api/v1' }));
    // @ts-expect-error Variant 2 has no messages.status
    void tracker.refresh('msg_1', new Variant2Client({ apiKey: 'k', baseUrl: 'https://x.test/api/v1' }));
  });

  it('has one store shape, in memory and on Redis, and plugs the tracker into both receivers', () => {
    expectTypeOf(memoryStatusStore).returns.toEqualTypeOf<StatusStore>();
    expectTypeOf(redisStatusStore).returns.toEqualTypeOf<StatusStore>();
    const tracker = createStatusTracker({ store: redisStatusStore(new Redis({ lazyConnect: true }), { ttl: 1000 }) });
    createWebhookHandler({ secret: 's', tracker });
    webhookMiddleware({ secret: 's', tracker });
  });

  it('carries the record on its errors', () => {
    expectTypeOf<MessageFailedError>().toExtend<BizMsgError>();
    expectTypeOf<MessageFailedError['record']>().toEqualTypeOf<StatusRecord>();
    expectTypeOf<StatusTimeoutError>().toExtend<BizMsgError>();
    expectTypeOf<StatusTimeoutError['record']>().toEqualTypeOf<StatusRecord | undefined>();
  });
});
