import fc from 'fast-check';
import type { StatusTracker, WebhookEvent } from '../../src/webhooks/index.js';

const RANK = ['sent', 'delivered', 'read', 'failed'];

/** One piece of news of a message: a `track` of the send's answer or one webhook event. */
export type News = { track: { id: string; to: string; status: string; created_at: string } } | { event: WebhookEvent };

/**
 * Every piece of news one message may bring (track, sent, delivered, read, failed with its
 * error), on times the arbitrary picks; `id` names the message.
 */
function allNews(id: string, base: number, gaps: number[], withError: boolean, created: number): News[] {
  const at = (i: number) => new Date(base + gaps.slice(0, i + 1).reduce((a, b) => a + b, 0)).toISOString();
  const data = (status: string, extra: Record<string, unknown> = {}) => ({
    message_id: id,
    to: '4915112345678',
    status,
    ...extra,
  });
  return [
    { track: { id, to: '+49 151 12345678', status: 'sent', created_at: new Date(base - created).toISOString() } },
    { event: { event: 'message.sent', timestamp: at(0), data: data('sent') } as WebhookEvent },
    {
      event: {
        event: 'message.delivered',
        timestamp: at(1),
        data: data('delivered', { delivered_at: at(1) }),
      } as WebhookEvent,
    },
    {
      event: {
        event: 'message.read',
        timestamp: at(2),
        data: data('read', { delivered_at: at(1), read_at: at(2) }),
      } as WebhookEvent,
    },
    {
      event: {
        event: 'message.failed',
        timestamp: at(3),
        data: data('failed', {
          failed_at: at(3),
          ...(withError ? { error: { code: 'UNDELIVERABLE', message: 'Handset off' } } : {}),
        }),
      } as WebhookEvent,
    },
  ];
}

/** Any subset of a message's news, each piece possibly repeated, in two independent orders. */
export function newsInTwoOrders(id: string) {
  return fc
    .record({
      base: fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }),
      gaps: fc.array(fc.integer({ min: 0, max: 3_600_000 }), { minLength: 4, maxLength: 4 }),
      withError: fc.boolean(),
      // The send's answer may stamp the message a little before its message.sent event does.
      created: fc.integer({ min: 0, max: 2000 }),
      picks: fc.uniqueArray(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 5 }),
      repeats: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 4 }),
    })
    .chain(({ base, gaps, withError, created, picks, repeats }) => {
      const news = allNews(id, base, gaps, withError, created);
      const chosen = [...picks, ...repeats.filter((i) => picks.includes(i))].map((i) => news[i]!);
      return fc.tuple(
        fc.shuffledSubarray(chosen, { minLength: chosen.length }),
        fc.shuffledSubarray(chosen, { minLength: chosen.length }),
      );
    });
}

/** Gives the news to `tracker` in order; throws if a status ever moved back. */
export async function applyAll(tracker: StatusTracker, news: readonly News[]): Promise<void> {
  let rank = -1;
  for (const piece of news) {
    const record = 'track' in piece ? await tracker.track(piece.track) : await tracker.apply(piece.event);
    const now = RANK.indexOf(record!.status);
    if (now < rank) throw new Error(`the status moved back to ${record!.status}`);
    rank = now;
  }
}
