import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStatusTracker, type WebhookEvent } from '../../../src/webhooks/index.js';
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
  it('applies an event of any shape to the message it names, or ignores it: it never throws and never moves back', async () => {
    const kinds = ['message.sent', 'message.delivered', 'message.read', 'message.failed'];
    const field = fc.oneof(
      fc.string(),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.integer({ min: 1, max: 4_000_000_000_000 }),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...kinds),
        fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.integer({ min: 1, max: 4_000_000_000_000 }),
          fc.anything(),
        ),
        fc.record(
          {
            message_id: fc.oneof(fc.constant('msg_f'), fc.anything()),
            id: fc.oneof(fc.constant('msg_f'), fc.anything()),
            to: field,
            delivered_at: field,
            read_at: field,
            failed_at: field,
            error: fc.oneof(field, fc.record({ code: field, message: field })),
            errors: fc.oneof(field, fc.array(fc.record({ code: field, title: field }))),
            error_code: field,
          },
          { requiredKeys: [] },
        ),
        async (kind, timestamp, data) => {
          const tracker = createStatusTracker();
          await tracker.track({ id: 'msg_f' });
          const outcome = await tracker.apply({ event: kind, timestamp, data } as WebhookEvent).then(
            (record) => ({ record }),
            (error: unknown) => ({ error }),
          );
          expect(outcome).not.toHaveProperty('error');
          if (!('record' in outcome) || outcome.record === undefined) {
            expect(await tracker.summary()).toMatchObject({ total: 1, sent: 1 });
            return;
          }
          const { record } = outcome;
          expect(record.status).toBe(kind.slice('message.'.length));
          for (const at of [record.sentAt, record.deliveredAt, record.readAt, record.failedAt])
            if (at !== undefined) expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
          expect(await tracker.get(record.id)).toEqual(record);
        },
      ),
      { numRuns: 300 },
    );
  });
});
