// The documents' webhooks section: the ten events and their signature header.
import type * as z from 'zod/mini';
import type { JsonSchema } from '../contract/endpoints.js';
import { SIGNATURE_HEADER_NAME } from '../contract/webhooks.js';
import { WEBHOOK_EVENT_KINDS } from '../schemas/webhook-endpoint.js';
import { eventSchemaName, webhookEventSchemas } from './json-schemas.js';

/** What each event kind means (spec section 6). */
const MEANINGS: Readonly<Record<(typeof WEBHOOK_EVENT_KINDS)[number], string>> = {
  'message.received': 'new inbound message',
  'message.sent': 'outbound message sent',
  'message.delivered': 'message delivered to the recipient',
  'message.read': 'message read by the recipient',
  'message.failed': 'message delivery failed',
  'conversation.created': 'new conversation opened',
  'conversation.closed': 'conversation closed',
  'contact.created': 'new contact added',
  'contact.updated': 'contact updated',
  'campaign.completed': 'campaign finished sending',
};

/** The `X-Service-Signature` header parameter of every delivery. */
export const SIGNATURE_PARAMETER: JsonSchema = {
  name: SIGNATURE_HEADER_NAME,
  in: 'header',
  required: true,
  description:
    "HMAC-SHA256 of the raw request body, keyed with the endpoint's `secret`, hex-encoded, as `sha256=<hex>`. Verify it over the exact bytes received " +
    "(never re-serialised JSON) with a constant-time comparison; bizmsg's `verifyWebhook` also accepts the bare hex digest.",
  schema: { type: 'string', pattern: '^(sha256=)?[0-9a-fA-F]{64}$' },
};

const DELIVERY =
  'A delivery that does not get a 2xx answer within 10 s (a non-2xx status, a network error or a time-out; the spec does not say, this is what bizmsg decided) ' +
  'is retried after 1 minute, 5 minutes, 30 minutes, 2 hours and 24 hours; when the 5th retry also fails the endpoint is disabled and the account owner gets an e-mail.';

/** What the `data` of an event carries, from its schema: the fields always there, then the others. */
function dataFields(event: z.ZodMiniType): string {
  const shapeOf = (schema: z.ZodMiniType) =>
    (schema._zod.def as unknown as { shape: Record<string, z.ZodMiniType> }).shape;
  const fields = Object.entries(shapeOf(shapeOf(event).data!));
  const names = (optional: boolean) =>
    fields.filter(([, schema]) => (schema._zod.optin === 'optional') === optional).map(([name]) => `\`${name}\``);
  const others = names(true);
  return `\`data\` always carries ${names(false).join(', ')}${others.length === 0 ? '' : `, and may carry ${others.join(', ')}`}; fields added later are kept.`;
}

/** The `webhooks` section: one POST per event kind, with its payload and signature. */
export function webhooksSection(): Record<string, JsonSchema> {
  const schemas = webhookEventSchemas();
  return Object.fromEntries(
    WEBHOOK_EVENT_KINDS.map((kind) => [
      kind,
      {
        post: {
          operationId: `on${eventSchemaName(kind)}`,
          summary: `${kind}: ${MEANINGS[kind]}`,
          description:
            `POSTed to every active endpoint whose \`events\` include \`${kind}\`. ` +
            `${dataFields(schemas.get(kind)!)} ` +
            (kind === 'message.delivered'
              ? ''
              : "The spec does not show this kind's `data`: these fields are what bizmsg decided, and what its mock sends. ") +
            DELIVERY,
          tags: ['Webhook events'],
          parameters: [{ $ref: '#/components/parameters/ServiceSignature' }],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${eventSchemaName(kind)}` } } },
          },
          responses: {
            '2XX': { description: 'Handled: the delivery succeeded.' },
            '401': {
              description: 'The signature does not match: the receiver rejects the delivery, which counts as failed.',
            },
          },
        },
      },
    ]),
  );
}
