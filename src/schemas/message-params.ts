import * as z from 'zod/mini';
import { nonEmptyString } from './common.js';

/** Content of a text message. */
const TextContentSchema = /* @__PURE__ */ z.object({ body: nonEmptyString() });
/** Content of a template message. */
export const TemplateContentSchema = /* @__PURE__ */ z.object({
  name: nonEmptyString(),
  language: nonEmptyString(),
  components: z.array(z.unknown()),
});
/** Content of a template message. */
export type TemplateContent = z.infer<typeof TemplateContentSchema>;

/** Variant 2 body of a text message. */
export const SendTextMessageSchema = /* @__PURE__ */ z.object({
  to: z.string(),
  messaging_account_id: z.int(),
  type: z.literal('text'),
  content: TextContentSchema,
});
/** Variant 2 body of a template message. */
export const SendTemplateMessageSchema = /* @__PURE__ */ z.object({
  to: z.string(),
  messaging_account_id: z.int(),
  type: z.literal('template'),
  content: TemplateContentSchema,
});
/** Variant 2 body of `POST /messages/send`: a text or a template message. */
export const SendMessageSchema = /* @__PURE__ */ z.discriminatedUnion('type', [
  SendTextMessageSchema,
  SendTemplateMessageSchema,
]);
/** Variant 2 body of `POST /messages/send`. */
export type SendMessageParams = z.input<typeof SendMessageSchema>;

/** Variant 1 body of `POST /messages/send`. */
export const SendTextV1Schema = /* @__PURE__ */ z.object({ to: z.string(), message: nonEmptyString() });
/** Variant 1 body of `POST /messages/send`. */
export type SendTextV1Params = z.input<typeof SendTextV1Schema>;

/** Variant 1 body of `POST /messages/template` (not shown in the spec; mirrors Variant 2's content). */
export const SendTemplateV1Schema = /* @__PURE__ */ z.extend(TemplateContentSchema, { to: z.string() });
/** Variant 1 body of `POST /messages/template`. */
export type SendTemplateV1Params = z.input<typeof SendTemplateV1Schema>;
