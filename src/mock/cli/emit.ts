// `bizmsg-mock emit <kind> --to URL --secret S`: one signed delivery of a sample event, with no server.
import type { WebhookEventKind } from '../../schemas/event-kinds.js';
import { postEvent } from '../state/post-event.js';
import { sampleData } from '../state/samples.js';
import { MockStore } from '../state/store.js';
import { printable } from '../../shared/printable.js';

/** How long the receiver may take, as the mock's own deliveries allow by default. */
const TIMEOUT_MS = 10_000;

/** What `emit` was asked. */
interface Emit {
  event: WebhookEventKind;
  to: string;
  secret: string;
  data: Record<string, unknown>;
}

/**
 * POSTs one signed `event` (a sample of its kind, `data` merged over it) to `to`; prints the
 * answer; resolves with the exit code: 0 for a 2xx, 1 otherwise, naming the answer.
 */
export async function emitOnce({ event, to, secret, data }: Emit): Promise<number> {
  const now = new Date().toISOString();
  const body = JSON.stringify({
    event,
    timestamp: now,
    data: { ...sampleData(event, new MockStore(0), now), ...data },
  });
  const posted = await postEvent(to, body, secret, TIMEOUT_MS);
  const answer = posted.response === null ? (posted.error ?? String(posted.status)) : `${posted.status}`;
  const line = `${event} -> ${to} ${answer} (${Math.round(posted.durationMs)} ms)`;
  if (posted.ok) {
    console.log(line);
    return 0;
  }
  const body_ = posted.response?.body.trim() ?? '';
  const redirect = posted.response?.headers.location;
  const detail =
    redirect === undefined
      ? body_ === ''
        ? ''
        : `: ${printable(body_.slice(0, 200))}`
      : ` (a redirect to ${printable(redirect)}, not followed)`;
  console.error(`bizmsg-mock emit: ${line}${detail}`);
  return 1;
}
