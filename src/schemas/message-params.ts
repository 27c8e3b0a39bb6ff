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
/**
 * One value filled into a template: `{ type: 'text', text }` (header, body, a url button's suffix),
 * `{ type: 'payload', payload }` (a quick reply), or another kind with its own field named after it
 * (`{ type: 'image', image: { link } }`). The spec does not show template parameters: this is the
 * common chat-API shape, and the service receives every field given.
 */
export interface TemplateParameter {
  /** The parameter's kind: `text`, `payload`, or another (`currency`, `date_time`, `image`, `document`, `video`); not shown in the spec. */
  type: string;
  /** The text filled in, with more than spaces, when `type` is `text` (not shown in the spec). */
  text?: string | undefined;
  /** The quick reply button's payload, with more than spaces, when `type` is `payload` (not shown in the spec). */
  payload?: string | undefined;
  /** The amount when `type` is `currency`, as the chat API takes it (not shown in the spec; bizmsg does not check it). */
  currency?: unknown;
  /** The date and time when `type` is `date_time`, as the chat API takes it (not shown in the spec; bizmsg does not check it). */
  date_time?: unknown;
  /** The image when `type` is `image` (`{ link }`, as the chat API takes it; not shown in the spec; bizmsg does not check it). */
  image?: unknown;
  /** The document when `type` is `document` (`{ link }`, as the chat API takes it; not shown in the spec; bizmsg does not check it). */
  document?: unknown;
  /** The video when `type` is `video` (`{ link }`, as the chat API takes it; not shown in the spec; bizmsg does not check it). */
  video?: unknown;
}

/**
 * One component of a template send: the header's or the body's parameters, or one button's
 * (`index`: its place among the template's buttons, from 0).
 */
export const TemplateComponentSchema = /* @__PURE__ */ templateComponentSchema();
/** The header's parameters in a template send (not shown in the spec: the common chat-API shape). */
export interface TemplateHeaderComponent {
  /** Marks the header's component (not shown in the spec). */
  type: 'header';
  /** The values filled into the header, in order (not shown in the spec). */
  parameters: TemplateParameter[];
}
/** The body's parameters in a template send (not shown in the spec: the common chat-API shape). */
export interface TemplateBodyComponent {
  /** Marks the body's component (not shown in the spec). */
  type: 'body';
  /** The values filled into the body, in order (not shown in the spec). */
  parameters: TemplateParameter[];
}
/** One button's parameters in a template send (not shown in the spec: the common chat-API shape). */
export interface TemplateButtonComponent {
  /** Marks a button's component (not shown in the spec). */
  type: 'button';
  /** The button's kind: `url` (a suffix for its URL) or `quick_reply` (its payload); not shown in the spec. */
  sub_type: 'url' | 'quick_reply';
  /** The button's place among the template's buttons, from 0 (`'0'` or `0`, up to 999; not shown in the spec). */
  index: string | number;
  /** The values filled into the button (not shown in the spec). */
  parameters: TemplateParameter[];
}
/** One component of a template send: the header's, the body's or one button's parameters. */
export type TemplateComponent = TemplateHeaderComponent | TemplateBodyComponent | TemplateButtonComponent;

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
/** Content of a template message: which template, in which language, filled with what. */
export interface TemplateContent {
  /** Name of the approved template, not empty (shown in the spec). */
  name: string;
  /** Language code of the template (`en`, `de_DE`), not empty (shown in the spec). */
  language: string;
  /** The values filled into the template's header, body and buttons (shown in the spec; their shape is not). */
  components: TemplateComponent[];
}

/** Content of a text message. */
export interface TextContent {
  /** The message's text, not empty (shown in the spec). */
  body: string;
}

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
/** Variant 2 body of `POST /messages/send` for a text message. */
export interface Variant2TextMessageParams {
  /** The recipient's phone number, international or in the client's `phoneFormat` (shown in the spec). */
  to: string;
  /** Id of the messaging account the message goes out from, an integer (shown in the spec). */
  messaging_account_id: number;
  /** Marks a text message (shown in the spec). */
  type: 'text';
  /** The message's text (shown in the spec). */
  content: TextContent;
}
/** Variant 2 body of `POST /messages/send` for a template message. */
export interface Variant2TemplateMessageParams {
  /** The recipient's phone number, international or in the client's `phoneFormat` (shown in the spec). */
  to: string;
  /** Id of the messaging account the message goes out from, an integer (shown in the spec). */
  messaging_account_id: number;
  /** Marks a template message (shown in the spec). */
  type: 'template';
  /** The template, its language and the values filled in (shown in the spec). */
  content: TemplateContent;
}
/** Variant 2 body of `POST /messages/send`: a text or a template message. */
export type Variant2SendMessageParams = Variant2TextMessageParams | Variant2TemplateMessageParams;
/** Variant 1 body of `POST /messages/send`. */
export const Variant1SendTextSchema = /* @__PURE__ */ z.object({ to: PhoneParamSchema, message: nonEmptyString() });
/** Variant 1 body of `POST /messages/send` (`messages.send`). */
export interface Variant1SendTextParams {
  /** The recipient's phone number, international or in the client's `phoneFormat` (shown in the spec). */
  to: string;
  /** The message's text, not empty (shown in the spec). */
  message: string;
}
/** Variant 1 body of `POST /messages/template` (not shown in the spec; mirrors Variant 2's content). */
export const Variant1SendTemplateSchema = /* @__PURE__ */ z.extend(TemplateContentSchema, { to: PhoneParamSchema });
/** Variant 1 body of `POST /messages/template` (`messages.sendTemplate`; not shown in the spec: it mirrors Variant 2's content). */
export interface Variant1SendTemplateParams extends TemplateContent {
  /** The recipient's phone number, international or in the client's `phoneFormat` (not shown in the spec: bizmsg's guess). */
  to: string;
}
