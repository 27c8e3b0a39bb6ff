// A webhook endpoint, and the event kinds (spec section 6).
import * as z from 'zod/mini';
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from './event-kinds.js';
import { expected, IdSchema, maybe, openEnum, type OpenEnum } from './common.js';

/** States of a webhook endpoint. */
export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const;
/** A webhook endpoint status. */
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/** A registered webhook endpoint (the secret is not returned): its id, and bizmsg's guess of the rest (contract/fields.ts). */
export const WebhookEndpointSchema = /* @__PURE__ */ z.looseObject({
  id: IdSchema,
  url: expected(z.string()),
  events: expected(z.array(openEnum(WEBHOOK_EVENT_KINDS))),
  status: expected(openEnum(WEBHOOK_ENDPOINT_STATUSES)),
  created_at: expected(z.nullable(z.string())),
  disabled_at: maybe(z.string()),
});
/** A registered webhook endpoint (Variant 2); the secret is not returned. */
export interface WebhookEndpoint {
  /** The endpoint's id (not shown by the spec: always there, as the method needs it). */
  id: string | number;
  /** The URL the service posts events to (guessed: may be missing). */
  url?: string | undefined;
  /** The event kinds it receives (guessed: may be missing). */
  events?: OpenEnum<WebhookEventKind>[] | undefined;
  /** Whether the service sends to it: active or disabled (guessed: may be missing). */
  status?: OpenEnum<WebhookEndpointStatus> | undefined;
  /** When it was registered, as the service wrote the time (guessed: may be missing). */
  created_at?: string | null | undefined;
  /** When the service disabled it, as it wrote the time (guessed: may be missing). */
  disabled_at?: string | null | undefined;
}
