// The documents' webhooks section: the ten events and their signature header.
import type { JsonSchema } from '../contract/endpoints.js';
import { EVENT_DATA_MARKS } from '../contract/event-fields.js';
import type { FieldMark } from '../contract/fields.js';
import { SIGNATURE_HEADER_NAME } from '../contract/webhooks.js';
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '../schemas/event-kinds.js';
import { eventSchemaName } from './json-schemas.js';

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

/**
 * What the `data` of an event carries, by the marks of its fields (contract/event-fields.ts): what
 * the spec shows, and bizmsg's guess of the rest.
 */
function dataFields(kind: WebhookEventKind): string {
  const marks = Object.entries(EVENT_DATA_MARKS[kind]);
  const names = (...of: FieldMark[]) =>
    marks
      .filter(([, mark]) => of.includes(mark))
      .map(([name]) => `\`${name}\``)
      .join(', ');
  const shown = names('shown', 'shown?');
  const always = names('guessed', 'promised');
  const maybe = names('guessed?');
  const guess = [always && `always carries ${always}`, maybe && `may carry ${maybe}`].filter(Boolean).join(' and ');
  return (
    (shown === ''
      ? `The spec does not show this kind's \`data\`: bizmsg's guess (what its mock sends) is that it ${guess}.`
      : `The spec shows \`data\`: ${shown}; bizmsg's mock also sends what it guessed: ${maybe || always}.`) +
    ' A receiver accepts any `data` and reports how it differs (`onDrift`); fields added later are kept.'
  );
}

/** The `webhooks` section: one POST per event kind, with its payload and signature. */
export function webhooksSection(): Record<string, JsonSchema> {
  return Object.fromEntries(
    WEBHOOK_EVENT_KINDS.map((kind) => [
      kind,
      {
        post: {
          operationId: `on${eventSchemaName(kind)}`,
          summary: `${kind}: ${MEANINGS[kind]}`,
          description: `POSTed to every active endpoint whose \`events\` include \`${kind}\`. ${dataFields(kind)} ${DELIVERY}`,
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
