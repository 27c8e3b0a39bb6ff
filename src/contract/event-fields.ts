// Which fields of each webhook event the spec shows (as fields.ts does for answers): every event's
// envelope, and `message.delivered`'s data; the rest is bizmsg's guess. Also the schema of each kind.
import type { ZodMiniType } from 'zod/mini';
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '../schemas/event-kinds.js';
import { WebhookEventSchema } from '../schemas/webhook-event.js';
import { fieldMarks, type FieldMark, type FieldMarks } from './fields.js';

/** The schema of each event kind (one option of the union), by kind. */
export const EVENT_SCHEMAS: ReadonlyMap<WebhookEventKind, ZodMiniType> = /* @__PURE__ */ eventSchemas();

function eventSchemas(): Map<WebhookEventKind, ZodMiniType> {
  // Each option of the union knows the one value its `event` literal takes.
  const options = WebhookEventSchema._zod.def.options as readonly ZodMiniType[];
  return new Map(options.map((option) => [[...option._zod.propValues!.event!][0] as WebhookEventKind, option]));
}

/** The schema of an event's `data`. */
export function eventDataSchema(kind: WebhookEventKind): ZodMiniType {
  return (EVENT_SCHEMAS.get(kind)!._zod.def as unknown as { shape: { data: ZodMiniType } }).shape.data;
}

/**
 * The marks of every event's envelope (`{ event, timestamp, data }`, spec section 6) and `data`:
 * only `message.delivered`'s four data fields are shown.
 */
export const EVENT_MARKS: FieldMarks = /* @__PURE__ */ fieldMarks(
  WEBHOOK_EVENT_KINDS.flatMap((kind) => [
    [EVENT_SCHEMAS.get(kind)!, { shown: ['event', 'timestamp', 'data'] }],
    [
      eventDataSchema(kind),
      kind === 'message.delivered' ? { shown: ['message_id', 'to', 'status', 'delivered_at'] } : {},
    ],
  ]),
);

/** The marks of each kind's `data`, by kind. */
export const EVENT_DATA_MARKS: Readonly<Record<WebhookEventKind, Readonly<Record<string, FieldMark>>>> =
  /* @__PURE__ */ Object.fromEntries(
    WEBHOOK_EVENT_KINDS.map((kind) => [kind, EVENT_MARKS.get(eventDataSchema(kind))!]),
  ) as Record<WebhookEventKind, Readonly<Record<string, FieldMark>>>;
