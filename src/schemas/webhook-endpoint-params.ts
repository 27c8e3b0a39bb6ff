// The body of a webhook endpoint registration.
import * as z from 'zod/mini';
import { nonEmptyArray, nonEmptyString } from './common.js';
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from './event-kinds.js';

/** Body of a webhook endpoint registration. */
export const WebhookEndpointCreateSchema = /* @__PURE__ */ z.object({
  // fetch refuses to POST to a URL carrying a user name or password, so no event could arrive.
  url: z.url({ protocol: /^https?$/ }).check(z.refine(withoutCredentials, 'must not carry a user name or password')),
  events: nonEmptyArray(z.enum(WEBHOOK_EVENT_KINDS)),
  secret: nonEmptyString(),
});
/** Body of a webhook endpoint registration (`webhookEndpoints.create`). */
export interface WebhookEndpointCreateParams {
  /** The http(s) URL events are POSTed to, without a user name or password (shown in the spec). */
  url: string;
  /** The event kinds to receive, at least one (shown in the spec). */
  events: WebhookEventKind[];
  /** The secret events are signed with, not empty (shown in the spec). */
  secret: string;
}

/** Whether a URL (one `z.url` accepted) names no user and no password. */
function withoutCredentials(url: string): boolean {
  try {
    const { username, password } = new URL(url);
    return username === '' && password === '';
  } catch {
    return true; // z.url reports it
  }
}
