// The bodies of the message sends, per variant.
import * as z from 'zod/mini';
import { nonEmptyString, PhoneParamSchema } from './common.js';

/** Content of a text message. */
const TextContentSchema = /* @__PURE__ */ z.object({ body: nonEmptyString() });

/** The kinds of button a template may have parameters for. */
export const TEMPLATE_BUTTON_SUB_TYPES = ['url', 'quick_reply'] as const;

/** A string with something in it besides spaces. */
const filled = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/**
 * One value filled into a template (the common chat-API shape): `{ type: 'text', text }` (header,
 * body, a url button's suffix), `{ type: 'payload', payload }` (a quick reply), or another kind
 * (currency, date_time, media) with its own fields.
 */
export const TemplateParameterSchema = /* @__PURE__ */ templateParameterSchema();
/** One value filled into a template. */
export type TemplateParameter = z.infer<typeof TemplateParameterSchema>;

/**
 * One component of a template send: the header's or the body's parameters, or one button's
 * (`index`: its place among the template's buttons, from 0).
 */
export const TemplateComponentSchema = /* @__PURE__ */ templateComponentSchema();
/** One component of a template send. */
export type TemplateComponent = z.infer<typeof TemplateComponentSchema>;

// Built in functions: a `.check(...)` on a schema is a method call no annotation marks as pure, and a
// client that sends no template must not carry these schemas (figure 1).
/* @__NO_SIDE_EFFECTS__ */
function templateParameterSchema() {
  return z
    .looseObject({
      // Any kind: the chat APIs add kinds (currency, date_time, image, document, video, ...).
      type: nonEmptyString(),
      text: z.optional(z.string()),
      payload: z.optional(z.string()),
    })
    .check(
      z.refine((p) => p.type !== 'text' || filled(p.text), { message: 'must not be empty', path: ['text'] }),
      z.refine((p) => p.type !== 'payload' || filled(p.payload), { message: 'must not be empty', path: ['payload'] }),
    );
}

/* @__NO_SIDE_EFFECTS__ */
function templateComponentSchema() {
  const parameters = z.array(TemplateParameterSchema);
  return z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('header'), parameters }),
    z.looseObject({ type: z.literal('body'), parameters }),
    z.looseObject({
      type: z.literal('button'),
      sub_type: z.enum(TEMPLATE_BUTTON_SUB_TYPES),
      index: z.union([
        z.string().check(z.regex(/^\d{1,3}$/, 'must be the button’s place among the template’s buttons, from "0"')),
        z.int().check(z.gte(0), z.lte(999)),
      ]),
      parameters,
    }),
  ]);
}

/** Content of a template message. */
export const TemplateContentSchema = /* @__PURE__ */ z.object({
  name: nonEmptyString(),
  language: nonEmptyString(),
  components: z.array(TemplateComponentSchema),
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
