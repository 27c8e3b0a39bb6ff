import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStatusTracker, WebhookVerificationError, type WebhookEvent } from '../../../src/webhooks/index.js';
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

describe('apply under fuzzed message events', () => {
  it('either applies a whole record or rejects with a typed error and changes nothing', async () => {
    const kinds = ['message.sent', 'message.delivered', 'message.read', 'message.failed'];
    const field = fc.oneof(
      fc.string(),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...kinds),
        fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        ),
        fc.record(
          {
            message_id: fc.oneof(fc.constant('msg_f'), fc.anything()),
            to: field,
            delivered_at: field,
            read_at: field,
            failed_at: field,
            error: fc.oneof(field, fc.record({ code: field, message: field })),
            error_code: field,
          },
          { requiredKeys: [] },
        ),
        async (kind, timestamp, data) => {
          const tracker = createStatusTracker();
          await tracker.track({ id: 'msg_f' });
          const before = await tracker.get('msg_f');
          const outcome = await tracker.apply({ event: kind, timestamp, data } as WebhookEvent).then(
            (record) => ({ record }),
            (error: unknown) => ({ error }),
          );
          if ('error' in outcome) {
            expect(outcome.error).toBeInstanceOf(WebhookVerificationError);
            expect(await tracker.get('msg_f')).toEqual(before);
            return;
          }
          const { record } = outcome;
          expect(record!.status).toBe(kind.slice('message.'.length));
          for (const at of [record!.sentAt, record!.deliveredAt, record!.readAt, record!.failedAt])
            if (at !== undefined) expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
          expect(await tracker.get(record!.id)).toEqual(record);
        },
      ),
      { numRuns: 300 },
    );
  });
});
