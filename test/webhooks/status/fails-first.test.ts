import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createStatusTracker,
  MessageFailedError,
  type StatusRecord,
  type WebhookEvent,
} from '../../../src/webhooks/index.js';

// "Fails first" is read from the events' own times, not from the order they arrive in: a failure
// stamped before a delivery means the message failed before it was delivered, even when the
// delivery's event arrives last (webhooks are retried, so events arrive in any order).

const event = (kind: string, message_id: string, timestamp: string) =>
  ({ event: kind, timestamp, data: { message_id } }) as WebhookEvent;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 10, minute)).toISOString();

/** How `waitFor(id, goal)` ends: the record it resolved with, or the error it rejected with. */
function outcome(wait: Promise<StatusRecord>): Promise<{ record: StatusRecord } | { error: unknown }> {
  return wait.then(
    (record) => ({ record }),
    (error: unknown) => ({ error }),
  );
}

describe('waitFor when a message both failed and was delivered', () => {
  it('rejects with MessageFailedError when the failure came before the delivery (the failure arrived first)', async () => {
    const tracker = createStatusTracker();
    await tracker.apply(event('message.failed', 'm1', at(1)));
    await tracker.apply(event('message.delivered', 'm1', at(2)));
    const error = await tracker.waitFor('m1', 'delivered', { timeout: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessageFailedError);
    expect((error as MessageFailedError).message).toBe(
      'Message m1 failed at 2026-11-22T10:01:00.000Z before it was delivered.',
    );
    expect((error as MessageFailedError).record).toEqual({
      id: 'm1',
      status: 'failed',
      failedAt: at(1),
      deliveredAt: at(2),
    });
  });

  it('rejects a waiter already waiting when the later delivery arrives after the earlier failure', async () => {
    const tracker = createStatusTracker();
    const waiting = outcome(tracker.waitFor('m2', 'read', { timeout: 5000 }));
    await tracker.apply(event('message.failed', 'm2', at(3)));
    await tracker.apply(event('message.read', 'm2', at(4)));
    expect(await waiting).toEqual({ error: expect.any(MessageFailedError) });
  });

  it('resolves, as before, for a message delivered before it failed, whichever event arrived first', async () => {
    const tracker = createStatusTracker();
    await tracker.apply(event('message.failed', 'm3', at(5)));
    await tracker.apply(event('message.delivered', 'm3', at(4)));
    expect(await tracker.waitFor('m3', 'delivered', { timeout: 1000 })).toEqual({
      id: 'm3',
      status: 'failed',
      failedAt: at(5),
      deliveredAt: at(4),
    });
  });

  it('for any times and arrival order: delivered (or read) counts only when it came no later than the failure', async () => {
    const steps = ['message.delivered', 'message.read', 'message.failed'] as const;
    type Step = (typeof steps)[number];
    type Goal = 'delivered' | 'read' | 'final';
    /** How a waiter that has seen `known` (kind and minute) ends: resolved, rejected, or still waiting. */
    const decision = (known: ReadonlyMap<Step, number>, goal: Goal): 'resolved' | 'rejected' | undefined => {
      const failedAt = known.get('message.failed');
      const before = (kind: Step) => known.has(kind) && (failedAt === undefined || known.get(kind)! <= failedAt);
      const reached =
        goal === 'final'
          ? failedAt !== undefined || known.has('message.read')
          : before('message.read') || (goal === 'delivered' && before('message.delivered'));
      if (reached) return 'resolved';
      return failedAt === undefined ? undefined : 'rejected';
    };
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(fc.nat(59), fc.nat(59), fc.nat(59)),
        fc.shuffledSubarray([...steps], { minLength: 1 }),
        fc.constantFrom<Goal>('delivered', 'read', 'final'),
        fc.boolean(),
        async (minutes, arriving, goal, waitFirst) => {
          const tracker = createStatusTracker();
          const minuteOf = (kind: Step) => minutes[steps.indexOf(kind)]!;
          const early = waitFirst ? outcome(tracker.waitFor('m', goal, { timeout: 50 })) : undefined;
          const known = new Map<Step, number>();
          // A waiter already waiting settles at the first news that decides it; one that starts
          // after every event has arrived sees them all.
          let expected: 'resolved' | 'rejected' | undefined;
          for (const kind of arriving) {
            await tracker.apply(event(kind, 'm', at(minuteOf(kind))));
            known.set(kind, minuteOf(kind));
            if (waitFirst) expected ??= decision(known, goal);
          }
          if (!waitFirst) expected = decision(known, goal);
          const ended = await (early ?? outcome(tracker.waitFor('m', goal, { timeout: 50 })));
          if (expected === 'resolved') expect(ended).toEqual({ record: expect.objectContaining({ id: 'm' }) });
          else if (expected === 'rejected') expect(ended).toEqual({ error: expect.any(MessageFailedError) });
          else expect(ended).toEqual({ error: expect.objectContaining({ name: 'StatusTimeoutError' }) });
        },
      ),
      { numRuns: 150 },
    );
  });
});
