// The bodies of the message sends, per variant.
import * as z from 'zod/mini';
import { nonEmptyString, PhoneParamSchema } from './common.js';

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
export const Variant2TextMessageSchema = /* @__PURE__ */ z.object({
  to: PhoneParamSchema,
  messaging_account_id: z.int(),
  type: z.literal('text'),
  content: TextContentSchema,
});
/** Variant 2 body of a template message. */
export const Variant2TemplateMessageSchema = /* @__PURE__ */ z.object({
  to: PhoneParamSchema,
  messaging_account_id: z.int(),
  type: z.literal('template'),
  content: TemplateContentSchema,
});
/** Variant 2 body of `POST /messages/send`: a text or a template message. */
export const Variant2SendMessageSchema = /* @__PURE__ */ z.discriminatedUnion('type', [
  Variant2TextMessageSchema,
  Variant2TemplateMessageSchema,
]);
/** Variant 2 body of `POST /messages/send`. */
export type Variant2SendMessageParams = z.input<typeof Variant2SendMessageSchema>;
/** Variant 1 body of `POST /messages/send`. */
export const Variant1SendTextSchema = /* @__PURE__ */ z.object({ to: PhoneParamSchema, message: nonEmptyString() });
/** Variant 1 body of `POST /messages/send`. */
export type Variant1SendTextParams = z.input<typeof Variant1SendTextSchema>;
/** Variant 1 body of `POST /messages/template` (not shown in the spec; mirrors Variant 2's content). */
export const Variant1SendTemplateSchema = /* @__PURE__ */ z.extend(TemplateContentSchema, { to: PhoneParamSchema });
/** Variant 1 body of `POST /messages/template`. */
export type Variant1SendTemplateParams = z.input<typeof Variant1SendTemplateSchema>;
