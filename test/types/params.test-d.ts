// The params types users pass (issue 42): named interfaces without an index signature, each held to
// its zod schema's input, the one source of validation, so that a field added to one and not the
// other fails here.
import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type {
  AutomationTriggerParams,
  CampaignCreateParams,
  ContactCreateParams,
  ContactUpdateParams,
  TemplateComponent,
  TemplateContent,
  TemplateParameter,
  TextContent,
  Variant1SendTemplateParams,
  Variant1SendTextParams,
  Variant2SendMessageParams,
  Variant2SendTemplateParams,
  Variant2SendTextParams,
  Variant2TemplateMessageParams,
  Variant2TextMessageParams,
  WebhookEndpointCreateParams,
} from '../../src/index.js';
import type { AutomationTriggerSchema } from '../../src/schemas/automation-params.js';
import type { CampaignCreateSchema } from '../../src/schemas/campaign-params.js';
import type { ContactCreateSchema, ContactUpdateSchema } from '../../src/schemas/contact-params.js';
import type {
  TemplateComponentSchema,
  TemplateContentSchema,
  TemplateParameterSchema,
  Variant1SendTemplateSchema,
  Variant1SendTextSchema,
  Variant2SendMessageSchema,
  Variant2TemplateMessageSchema,
  Variant2TextMessageSchema,
} from '../../src/schemas/message-params.js';
import type { WebhookEndpointCreateSchema } from '../../src/schemas/webhook-endpoint-params.js';
import type { KnownFields, Primitive } from './known-fields.js';

/**
 * The fields `TemplateParameter` documents for the kinds the loose schema lets through unchecked
 * (`{ type: 'image', image: { link } }`): in the interface, not in the schema.
 */
type OtherKindField = 'currency' | 'date_time' | 'image' | 'document' | 'video';

/** `T` with the other kinds' fields left out of its template parameters, at any depth. */
type WithoutOtherKinds<T> = T extends Primitive
  ? T
  : T extends readonly (infer Item)[]
    ? WithoutOtherKinds<Item>[]
    : T extends object
      ? { [K in keyof T as K extends OtherKindField ? never : K]: WithoutOtherKinds<T[K]> }
      : T;

/** Whether a `From` may be passed where a `To` is expected. */
type Assignable<From, To> = [From] extends [To] ? true : false;

/** An intersection as one object type. */
type Flat<T> = { [K in keyof T]: T[K] };

type TextInput = z.input<typeof Variant2TextMessageSchema>;
type TemplateInput = z.input<typeof Variant2TemplateMessageSchema>;

describe('params types and their schemas', () => {
  it('hold the same fields, of the same types and optionality', () => {
    expectTypeOf<ContactCreateParams>().toEqualTypeOf<KnownFields<z.input<typeof ContactCreateSchema>>>();
    expectTypeOf<ContactUpdateParams>().toEqualTypeOf<KnownFields<z.input<typeof ContactUpdateSchema>>>();
    expectTypeOf<CampaignCreateParams>().toEqualTypeOf<KnownFields<z.input<typeof CampaignCreateSchema>>>();
    expectTypeOf<AutomationTriggerParams>().toEqualTypeOf<KnownFields<z.input<typeof AutomationTriggerSchema>>>();
    expectTypeOf<WebhookEndpointCreateParams>().toEqualTypeOf<
      KnownFields<z.input<typeof WebhookEndpointCreateSchema>>
    >();
    expectTypeOf<Variant1SendTextParams>().toEqualTypeOf<KnownFields<z.input<typeof Variant1SendTextSchema>>>();
    expectTypeOf<WithoutOtherKinds<Variant1SendTemplateParams>>().toEqualTypeOf<
      KnownFields<z.input<typeof Variant1SendTemplateSchema>>
    >();
    expectTypeOf<TextContent>().toEqualTypeOf<KnownFields<TextInput['content']>>();
    expectTypeOf<Variant2TextMessageParams>().toEqualTypeOf<KnownFields<TextInput>>();
    expectTypeOf<WithoutOtherKinds<Variant2TemplateMessageParams>>().toEqualTypeOf<KnownFields<TemplateInput>>();
    expectTypeOf<WithoutOtherKinds<Variant2SendMessageParams>>().toEqualTypeOf<
      KnownFields<z.input<typeof Variant2SendMessageSchema>>
    >();
    expectTypeOf<Variant2SendTextParams>().toEqualTypeOf<
      KnownFields<Flat<Omit<TextInput, 'type' | 'content'> & TextInput['content']>>
    >();
    expectTypeOf<WithoutOtherKinds<Variant2SendTemplateParams>>().toEqualTypeOf<
      KnownFields<Flat<Omit<TemplateInput, 'type' | 'content'> & TemplateInput['content']>>
    >();
    expectTypeOf<WithoutOtherKinds<TemplateParameter>>().toEqualTypeOf<
      KnownFields<z.input<typeof TemplateParameterSchema>>
    >();
    expectTypeOf<WithoutOtherKinds<TemplateComponent>>().toEqualTypeOf<
      KnownFields<z.input<typeof TemplateComponentSchema>>
    >();
    expectTypeOf<WithoutOtherKinds<TemplateContent>>().toEqualTypeOf<
      KnownFields<z.input<typeof TemplateContentSchema>>
    >();
  });

  it('would fail on a field in one and not the other', () => {
    expectTypeOf<ContactCreateParams & { vip?: boolean | undefined }>().not.toEqualTypeOf<
      KnownFields<z.input<typeof ContactCreateSchema>>
    >();
    expectTypeOf<Omit<ContactCreateParams, 'email'>>().not.toEqualTypeOf<
      KnownFields<z.input<typeof ContactCreateSchema>>
    >();
    expectTypeOf<WithoutOtherKinds<TemplateParameter>>().not.toEqualTypeOf<
      KnownFields<z.input<typeof TemplateParameterSchema> & { emoji?: string | undefined }>
    >();
  });

  // An interface has no implicit index signature, so one is not assignable to a loose schema's input
  // (automation trigger, template parts): for those, the equality above holds them to each other.
  it('a value of the interface is what a closed schema takes, and the other way round', () => {
    expectTypeOf<Assignable<ContactCreateParams, z.input<typeof ContactCreateSchema>>>().toEqualTypeOf<true>();
    expectTypeOf<Assignable<z.input<typeof ContactCreateSchema>, ContactCreateParams>>().toEqualTypeOf<true>();
    expectTypeOf<Assignable<CampaignCreateParams, z.input<typeof CampaignCreateSchema>>>().toEqualTypeOf<true>();
    expectTypeOf<Assignable<z.input<typeof CampaignCreateSchema>, CampaignCreateParams>>().toEqualTypeOf<true>();
    expectTypeOf<
      Assignable<WebhookEndpointCreateParams, z.input<typeof WebhookEndpointCreateSchema>>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Assignable<z.input<typeof WebhookEndpointCreateSchema>, WebhookEndpointCreateParams>
    >().toEqualTypeOf<true>();
    expectTypeOf<Assignable<Variant1SendTextParams, z.input<typeof Variant1SendTextSchema>>>().toEqualTypeOf<true>();
    expectTypeOf<Assignable<z.input<typeof Variant1SendTextSchema>, Variant1SendTextParams>>().toEqualTypeOf<true>();
  });

  it("a loose schema's input is a value of the interface", () => {
    expectTypeOf<Assignable<z.input<typeof AutomationTriggerSchema>, AutomationTriggerParams>>().toEqualTypeOf<true>();
    expectTypeOf<
      Assignable<z.input<typeof Variant2SendMessageSchema>, Variant2SendMessageParams>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Assignable<z.input<typeof Variant1SendTemplateSchema>, Variant1SendTemplateParams>
    >().toEqualTypeOf<true>();
    expectTypeOf<Assignable<z.input<typeof TemplateContentSchema>, TemplateContent>>().toEqualTypeOf<true>();
  });
});
