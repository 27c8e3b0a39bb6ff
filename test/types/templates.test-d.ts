import { describe, expectTypeOf, it } from 'vitest';
import {
  defineTemplates,
  type FilledTemplate,
  type TemplateCatalog,
  type TemplateComponent,
  type TemplateFunction,
  type TemplateParams,
  type TemplateSpec,
  type Variant1Client,
  type Variant2Client,
} from '../../src/index.js';
import { createMockServer } from '../../src/mock/index.js';
import { CATALOG, ORDER } from '../helpers/template-catalog.js';

declare const v1: Variant1Client;
declare const v2: Variant2Client;

const templates = defineTemplates(CATALOG);

describe('defineTemplates', () => {
  it('types each template by its parameters and languages, and the send it gives', () => {
    const filled = templates.order_update({ ...ORDER, order_id: 17 });
    expectTypeOf(filled).toEqualTypeOf<FilledTemplate<'order_update', 'en' | 'de'>>();
    expectTypeOf(filled.components).toEqualTypeOf<TemplateComponent[]>();
    expectTypeOf<Parameters<typeof templates.order_update>[0]>().toEqualTypeOf<{
      store: string | number;
      name: string | number;
      order_id: string | number;
      tracking: string | number;
      stop: string | number;
      language: 'en' | 'de';
    }>();
    expectTypeOf(templates.catalog.order_update.languages).toEqualTypeOf<readonly ['en', 'de']>();
  });

  it('makes a missing, extra or misspelt parameter and an unlisted language compile errors', () => {
    const { order_id: _left, ...missing } = ORDER;
    // @ts-expect-error order_id is missing
    templates.order_update(missing);
    // @ts-expect-error ordr_id is misspelt
    templates.order_update({ ...missing, ordr_id: 'A-17' });
    // @ts-expect-error coupon is no parameter of order_update
    templates.order_update({ ...ORDER, coupon: 'X' });
    // @ts-expect-error fr is not one of its languages
    templates.order_update({ ...ORDER, language: 'fr' });
    const { language: _language, ...noLanguage } = ORDER;
    // @ts-expect-error two languages: the send must name one
    templates.order_update(noLanguage);
    // @ts-expect-error a value is text or a number
    templates.order_update({ ...ORDER, name: true });
    // @ts-expect-error welcome takes no parameters
    templates.welcome({ name: 'Ada' });
    // @ts-expect-error promo takes its body's parameter
    templates.promo({ language: 'de' });
    // @ts-expect-error no template by that name
    templates.goodbye();
  });

  it('lets a one-language template leave out language (or name that one), and any language where none is listed', () => {
    expectTypeOf(templates.welcome()).toEqualTypeOf<FilledTemplate<'welcome', 'en'>>();
    templates.welcome({ language: 'en' });
    // @ts-expect-error de is not a language of welcome
    templates.welcome({ language: 'de' });
    templates.promo({ language: 'de', code: 'SPRING' });
    expectTypeOf(templates.reminder({ language: 'pt_BR', when: 'tomorrow' }).language).toEqualTypeOf<string>();
    // @ts-expect-error a template listing no language needs one per send
    templates.reminder({ when: 'tomorrow' });
  });

  it('refuses a bad catalog at compile time: a button kind it does not know, a template named catalog, a non-array', () => {
    // @ts-expect-error sub_type is url or quick_reply
    defineTemplates({ a: { buttons: [{ sub_type: 'call', params: [] }] } });
    // @ts-expect-error templates.catalog is the declaration itself
    defineTemplates({ catalog: { languages: ['en'] } });
    // @ts-expect-error body lists names
    defineTemplates({ a: { body: 'name' } });
    // @ts-expect-error an unknown field of an entry
    defineTemplates({ a: { bdy: ['name'] } });
  });

  it('spreads into both clients’ template sends and into Variant 2’s send', () => {
    const filled = templates.order_update({ ...ORDER, language: 'en' });
    void v2.messages.sendTemplate({ to: '+4915112345678', messaging_account_id: 1, ...filled });
    void v2.messages.send({ to: '+4915112345678', messaging_account_id: 1, type: 'template', content: filled });
    void v1.messages.sendTemplate({ to: '+4915112345678', ...templates.welcome() });
  });

  it('types a catalog read at run time (a JSON file) loosely: any name, any parameter, a language per send', () => {
    const loaded = defineTemplates(JSON.parse('{}') as TemplateCatalog);
    const fill = loaded.anything;
    expectTypeOf(fill).toEqualTypeOf<TemplateFunction<string, TemplateSpec> | undefined>();
    expectTypeOf<Parameters<NonNullable<typeof fill>>[0]>().toEqualTypeOf<TemplateParams<TemplateSpec>>();
    fill?.({ language: 'en', whatever: 'x' });
    // @ts-expect-error the language is still required
    fill?.({ whatever: 'x' });
  });

  it('hands the catalog, or what defineTemplates returned, to the mock', () => {
    createMockServer({ templates: templates.catalog });
    createMockServer({ templates });
    createMockServer({ templates: ['welcome'] });
    // @ts-expect-error a catalog entry is an object
    createMockServer({ templates: { welcome: 'en' } });
  });
});

describe('template components', () => {
  it('takes the common chat-API shape and refuses others', () => {
    const components: TemplateComponent[] = [
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://x.test/a.png' } }] },
      { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
      { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'STOP' }] },
    ];
    void v1.messages.sendTemplate({ to: '+4915112345678', name: 'x', language: 'en', components });
    // @ts-expect-error not a component
    void v1.messages.sendTemplate({ to: '+4915112345678', name: 'x', language: 'en', components: [{ foo: 1 }] });
    void v1.messages.sendTemplate({
      to: '+4915112345678',
      name: 'x',
      language: 'en',
      // @ts-expect-error a button needs its sub_type and index
      components: [{ type: 'button', parameters: [] }],
    });
  });
});
