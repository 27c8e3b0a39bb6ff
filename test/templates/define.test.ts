import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineTemplates, InvalidArgumentError, type TemplateCatalog } from '../../src/index.js';
import { paramValue, templateSpec } from '../helpers/template-arbitraries.js';
import { CATALOG, ORDER } from '../helpers/template-catalog.js';

const templates = defineTemplates(CATALOG);

/** Calls a template function with anything, as plain JavaScript could. */
const loosely =
  (fn: unknown, ...args: unknown[]) =>
  () =>
    (fn as (...a: unknown[]) => unknown)(...args);

describe('defineTemplates', () => {
  it('fills a template in the common chat-API shape: header, body, then each button with parameters at its index', () => {
    expect(templates.order_update({ ...ORDER, order_id: 17 })).toEqual({
      name: 'order_update',
      language: 'de',
      components: [
        { type: 'header', parameters: [{ type: 'text', text: 'Acme' }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ada' },
            { type: 'text', text: '17' },
          ],
        },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'x9' }] },
        { type: 'button', sub_type: 'quick_reply', index: '2', parameters: [{ type: 'payload', payload: 'STOP' }] },
      ],
    });
  });

  it('takes no language where the template has exactly one, and any where it lists none', () => {
    expect(templates.welcome()).toEqual({ name: 'welcome', language: 'en', components: [] });
    expect(templates.welcome({})).toEqual({ name: 'welcome', language: 'en', components: [] });
    expect(templates.welcome({ language: 'en' })).toEqual({ name: 'welcome', language: 'en', components: [] });
    expect(templates.reminder({ language: 'pt_BR', when: 'tomorrow' })).toEqual({
      name: 'reminder',
      language: 'pt_BR',
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'tomorrow' }] }],
    });
  });

  it('names the template and every parameter at fault: missing, misspelt, empty, of the wrong kind, an unlisted language', () => {
    expect(
      loosely(templates.order_update, {
        language: 'fr',
        store: ' ',
        name: '',
        ordr_id: 'A-17',
        tracking: { id: 1 },
        stop: Number.NaN,
      }),
    ).toThrow(
      new InvalidArgumentError(
        'templates.order_update(params): language "fr" is not one of the template\'s languages (en, de); ' +
          'parameter "store" is empty; parameter "name" is empty; parameter "order_id" is missing; ' +
          'parameter "tracking" must be a string or a finite number, got an object; ' +
          'parameter "stop" must be a string or a finite number, got NaN; ' +
          '"ordr_id" is not a parameter of order_update (it takes store, name, order_id, tracking, stop).',
      ),
    );
    expect(loosely(templates.order_update, { store: 'a', name: 'b', order_id: 'c', tracking: 'd', stop: 'e' })).toThrow(
      new InvalidArgumentError(
        'templates.order_update(params): language is required, the template has no single language (en, de).',
      ),
    );
    expect(loosely(templates.reminder, { when: 'now' })).toThrow(
      new InvalidArgumentError(
        'templates.reminder(params): language is required, the template has no single language.',
      ),
    );
    expect(loosely(templates.welcome, { language: 7, name: 'Ada' })).toThrow(
      new InvalidArgumentError(
        'templates.welcome(params): language must be a language code (en), got 7; "name" is not a parameter of welcome (it takes none).',
      ),
    );
    expect(loosely(templates.welcome, 'Ada')).toThrow(
      new InvalidArgumentError('templates.welcome(params) needs an object of parameters, got a string.'),
    );
    expect(loosely(templates.welcome, null)).toThrow(
      new InvalidArgumentError('templates.welcome(params) needs an object of parameters, got null.'),
    );
  });

  it('reads only own parameters: an inherited value does not fill one', () => {
    const params = Object.create({ when: 'inherited' }) as Record<string, unknown>;
    params.language = 'en';
    expect(loosely(templates.reminder, params)).toThrow(
      new InvalidArgumentError('templates.reminder(params): parameter "when" is missing.'),
    );
  });

  it('gives the declaration as plain, frozen JSON in `catalog`, a copy the caller cannot change afterwards', () => {
    const declared = { promo: { languages: ['en'], body: ['code'] } };
    const defined = defineTemplates(declared);
    declared.promo.body.push('later');
    expect(defined.catalog).toEqual({ promo: { languages: ['en'], body: ['code'] } });
    expect(JSON.parse(JSON.stringify(defined.catalog))).toEqual(defined.catalog);
    expect(Object.isFrozen(defined.catalog.promo.body)).toBe(true);
    expect(Object.isFrozen(defined)).toBe(true);
    expect(Object.keys(defined)).toEqual(['promo', 'catalog']);
  });

  it('refuses a catalog that cannot work, naming each field at fault, and makes nothing', () => {
    const refused = (catalog: unknown) => () => defineTemplates(catalog as TemplateCatalog);
    expect(refused([])).toThrow(
      new InvalidArgumentError(
        'defineTemplates(catalog) needs an object of templates by name ({ name: { languages?, header?, body?, buttons? } }), got an array.',
      ),
    );
    expect(
      refused({
        a: { bdy: ['x'] },
        b: { languages: [] },
        c: { body: 'name' },
        d: { buttons: [{ sub_type: 'call', params: [] }] },
        e: [],
        f: { buttons: [{ sub_type: 'url' }] },
      }),
    ).toThrow(
      new InvalidArgumentError(
        'defineTemplates(catalog): a.bdy is not a known field; b.languages must not be empty; c.body must be an array; ' +
          'd.buttons.0.sub_type must be one of url, quick_reply; e must be an object; f.buttons.0.params is required.',
      ),
    );
    expect(
      refused({
        a: { header: ['name'], body: ['name', 'language'], buttons: [{ sub_type: 'url', params: ['name'] }] },
        b: { languages: ['en', 'de', 'en'] },
        catalog: {},
        '': {},
      }),
    ).toThrow(
      new InvalidArgumentError(
        'defineTemplates(catalog): a.body.0 repeats "name", a parameter of the header: a name is used once per template; ' +
          'a.body.1 is reserved: `language` names the language of a send; ' +
          'a.buttons.0.params.0 repeats "name", a parameter of the header: a name is used once per template; ' +
          'b.languages.2 lists "en" twice; catalog is reserved: templates.catalog is the declaration itself; ' +
          'the catalog has a template whose name is empty.',
      ),
    );
    expect(refused(JSON.parse('{"__proto__": {}}'))).toThrow(
      new InvalidArgumentError('defineTemplates(catalog): __proto__ is reserved.'),
    );
  });
});

describe('defineTemplates, for any catalog', () => {
  it('fills every declared parameter once, in order, and refuses the same params with one left out', () => {
    fc.assert(
      fc.property(
        templateSpec,
        fc.array(paramValue, { minLength: 7, maxLength: 7 }),
        fc.nat(),
        (spec, values, pick) => {
          const defined = defineTemplates({ t: spec });
          const names = [...(spec.header ?? []), ...spec.body, ...spec.buttons.flatMap((button) => button.params)];
          const params: Record<string, unknown> = Object.fromEntries(names.map((name, i) => [name, values[i]]));
          const language = spec.languages?.[pick % spec.languages.length] ?? 'xx';
          const filled = (defined.t as (p: unknown) => { components: Array<{ parameters: object[] }> })({
            ...params,
            language,
          });
          const texts = filled.components.flatMap((c) => c.parameters.map((p) => Object.values(p)[1]));
          expect(texts).toEqual(names.map((name) => String(params[name])));
          if (names.length === 0) return;
          const { [names[pick % names.length]!]: _left, ...missing } = params;
          expect(() => (defined.t as (p: unknown) => unknown)({ ...missing, language })).toThrow(
            `parameter ${JSON.stringify(names[pick % names.length])} is missing`,
          );
        },
      ),
    );
  });
});
