// GET /_bizmsg/stream: what the mock does, as Server-Sent Events, gathered into one event per
// 100 ms at most, so that the dashboard refreshes what changed within moments and never polls.
import * as z from 'zod/mini';
import type { MockActivity, MockService } from '../service.js';

/** How long activity is gathered before one event carries it: a burst of 1,000 requests is one refresh. */
export const STREAM_BATCH_MS = 100;
/** How often an idle stream carries a comment: proxies keep it open, and a reader that left is found. */
const HEARTBEAT_MS = 15_000;
/** How many of the changes' descriptions one event names (their count is always whole). */
const NAMED_CHANGES = 20;
/** How soon a reader that lost the stream (the mock restarted) tries again, in ms. */
const RETRY_MS = 1000;

/** The data of each `activity` event: what the mock did since the event before it. */
export const StreamActivitySchema = /* @__PURE__ */ z.object({
  /** Requests to the service answered. */
  requests: z.int(),
  /** Webhook delivery attempts made. */
  deliveries: z.int(),
  /** Other changes (an inbound message, a clock task that ran, a fault injected), counted. */
  changes: z.int(),
  /** What the first 20 of those changes were, for people ("conversation 1 changed"). */
  what: z.array(z.string()),
  /** The virtual clock when the event was sent, ISO 8601. */
  now: z.string(),
});
/** The data of each `activity` event. */
export type StreamActivity = z.infer<typeof StreamActivitySchema>;

/** What a stream follows: the mock, or a proxy or replay of the real service (their clock is real time). */
export interface ActivitySource {
  subscribe: MockService['subscribe'];
  readonly clock: { date(): Date };
}

/** A stream of Server-Sent Events: `open` starts writing its text to `write`, and returns what stops it. */
export interface EventStream {
  open(write: (text: string) => void): () => void;
}

/**
 * The mock's activity as Server-Sent Events: `ready` at once (data `{ now }`: a reader refreshes
 * everything, having maybe missed changes while it was away), then `activity` at most every 100 ms
 * while the mock does something, and a comment every 15 s.
 */
export function activityStream(mock: ActivitySource): EventStream {
  return {
    open(write) {
      let batch: StreamActivity | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const flush = () => {
        timer = undefined;
        if (batch === undefined) return;
        write(eventText('activity', { ...batch, now: mock.clock.date().toISOString() }));
        batch = undefined;
      };
      const stop = mock.subscribe((activity) => {
        batch = counted(batch ?? { requests: 0, deliveries: 0, changes: 0, what: [], now: '' }, activity);
        timer ??= setTimeout(flush, STREAM_BATCH_MS);
      });
      write(`retry: ${RETRY_MS}\n\n${eventText('ready', { now: mock.clock.date().toISOString() })}`);
      const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
      return () => {
        stop();
        clearTimeout(timer);
        clearInterval(heartbeat);
      };
    },
  };
}

function counted(batch: StreamActivity, activity: MockActivity): StreamActivity {
  if (activity.kind === 'request') batch.requests += 1;
  else if (activity.kind === 'delivery') batch.deliveries += 1;
  else {
    batch.changes += 1;
    if (batch.what.length < NAMED_CHANGES) batch.what.push(activity.what);
  }
  return batch;
}

/** One event as the stream carries it: JSON has no line break of its own, so one `data:` line holds it. */
function eventText(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
