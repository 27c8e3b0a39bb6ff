// The body of a webhook endpoint registration.
import * as z from 'zod/mini';
import { nonEmptyArray, nonEmptyString } from './common.js';
import { WEBHOOK_EVENT_KINDS } from './webhook-endpoint.js';

/** Body of a webhook endpoint registration. */
export const WebhookEndpointCreateSchema = /* @__PURE__ */ z.object({
  url: z.url({ protocol: /^https?$/ }),
  events: nonEmptyArray(z.enum(WEBHOOK_EVENT_KINDS)),
  secret: nonEmptyString(),
});
/** Body of a webhook endpoint registration. */
export type WebhookEndpointCreateParams = z.input<typeof WebhookEndpointCreateSchema>;
