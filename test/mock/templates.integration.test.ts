import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTemplates, InvalidArgumentError, type TemplateCatalog } from '../../src/index.js';
import {
  createMockServer,
  MockService,
  startMockHttpServer,
  type MockHttpServer,
  type MockServer,
} from '../../src/mock/index.js';
import { errorEnvelope, rawApi, type RawResponse } from '../helpers/mock-api.js';
import { paramValue, templateSpec } from '../helpers/template-arbitraries.js';
import { catalogMocks, ORDER } from '../helpers/template-catalog.js';

const TO = '4915112345678';
const { templates, v1, v2 } = catalogMocks('templates.test');

/** Sends a template of `content` ({ name, language, components }) the way each variant's body carries it. */
function sendTemplate(variant: 1 | 2, api: ReturnType<typeof rawApi>, content: unknown): Promise<RawResponse> {
  return variant === 1
    ? api('POST', '/messages/template', { body: { to: TO, ...(content as object) } })
    : api('POST', '/messages/send', {
        body: { to: TO, messaging_account_id: 1, type: 'template', content },
      });
}

describe.each([
  [1, v1, 400, ''],
  [2, v2, 422, 'content.'],
] as Array<[1 | 2, MockServer, number, string]>)(
  'Variant %i, against a catalog, in process',
  (variant, mock, validationStatus, at) => {
    const api = rawApi(mock);
    const send = (content: unknown) => sendTemplate(variant, api, content);
    const refused = async (content: unknown, code: string, message: string, details: Record<string, string[]>) => {
      const response = await send(content);
      expect([response.status, response.body]).toEqual([
        code === 'TEMPLATE_NOT_FOUND' ? 400 : validationStatus,
        errorEnvelope(variant, { code, message, details }),
      ]);
      expect(mock.store.messages.size).toBe(0);
    };

    it('takes exactly what defineTemplates gives, and stores it as sent', async () => {
      const content = templates.order_update(ORDER);
      const response = await send(content);
      expect(response.status).toBe(200);
      expect(mock.store.messages.get('msg_1')).toMatchObject({ type: 'template', content });
      expect((await send(templates.welcome())).status).toBe(200);
    });

    it('answers a name or a language not in the catalog with TEMPLATE_NOT_FOUND naming what was sent', async () => {
      await refused(
        { name: 'order_updates', language: 'de', components: [] },
        'TEMPLATE_NOT_FOUND',
        'Template "order_updates" in language "de" does not exist.',
        { [`${at}name`]: ['is not a template of this account'] },
      );
      await refused(
        { ...templates.order_update(ORDER), language: 'fr' },
        'TEMPLATE_NOT_FOUND',
        'Template "order_update" in language "fr" does not exist (it has en, de).',
        { [`${at}language`]: ['is not a language of template "order_update" (en, de)'] },
      );
    });

    it('answers a parameter count that differs with VALIDATION_ERROR naming each component', async () => {
      const [header, body, button] = templates.order_update(ORDER).components;
      const shortBody = { ...body!, parameters: body!.parameters.slice(1) };
      await refused(
        { name: 'order_update', language: 'de', components: [header, shortBody] },
        'VALIDATION_ERROR',
        `Invalid request parameters: ${at}components.body, ${at}components.button.0, ${at}components.button.2.`,
        {
          [`${at}components.body`]: ['takes 2 parameters (name, order_id), got 1'],
          [`${at}components.button.0`]: ['takes 1 parameter (tracking), got none'],
          [`${at}components.button.2`]: ['takes 1 parameter (stop), got none'],
        },
      );
      await refused(
        { name: 'welcome', language: 'en', components: [body] },
        'VALIDATION_ERROR',
        `Invalid request parameters: ${at}components.body.`,
        { [`${at}components.body`]: ['takes no parameters, got 2'] },
      );
      await refused(
        {
          name: 'order_update',
          language: 'en',
          components: [
            header,
            body,
            body,
            { ...button!, sub_type: 'quick_reply' },
            { type: 'button', sub_type: 'quick_reply', index: 1, parameters: [{ type: 'payload', payload: 'x' }] },
            { type: 'button', sub_type: 'url', index: '7', parameters: [] },
          ],
        },
        'VALIDATION_ERROR',
        `Invalid request parameters: ${at}components.body, ${at}components.button.0, ${at}components.button.1, ${at}components.button.7, ${at}components.button.2.`,
        {
          [`${at}components.body`]: ['is sent more than once'],
          [`${at}components.button.0`]: ['is a url button, got quick_reply'],
          [`${at}components.button.1`]: ['takes no parameters, got 1'],
          [`${at}components.button.7`]: ['is not a button of the template (it has 3)'],
          [`${at}components.button.2`]: ['takes 1 parameter (stop), got none'],
        },
      );
    });

    it('checks the shape of components, as the chat APIs have it, whatever the catalog', async () => {
      await refused(
        { name: 'welcome', language: 'en', components: [{ foo: 1 }] },
        'VALIDATION_ERROR',
        `Invalid request parameters: ${at}components.0.type.`,
        { [`${at}components.0.type`]: ['must be one of header, body, button'] },
      );
      await refused(
        {
          name: 'promo',
          language: 'en',
          components: [
            { type: 'body', parameters: [{ type: 'text', text: ' ' }, { type: 'payload' }, 'x'] },
            { type: 'button', sub_type: 'call', index: '-1', parameters: [] },
          ],
        },
        'VALIDATION_ERROR',
        `Invalid request parameters: ${at}components.0.parameters.0.text, ${at}components.0.parameters.1.payload, ${at}components.0.parameters.2, ${at}components.1.sub_type, ${at}components.1.index.`,
        {
          [`${at}components.0.parameters.0.text`]: ['must not be empty'],
          [`${at}components.0.parameters.1.payload`]: ['must not be empty'],
          [`${at}components.0.parameters.2`]: ['must be an object'],
          [`${at}components.1.sub_type`]: ['must be one of url, quick_reply'],
          [`${at}components.1.index`]: ['must be the button’s place among the template’s buttons, from "0"'],
        },
      );
    });
  },
);

describe('the templates a mock knows', () => {
  it('shows the catalog in state(), and null for a template known by name only', () => {
    expect(v2.state().templates).toEqual(templates.catalog);
    expect(new MockService({ templates: ['welcome', 'promo'] }).state().templates).toEqual({
      welcome: null,
      promo: null,
    });
    expect(Object.keys(new MockService().state().templates)).toEqual([
      'welcome',
      'order_update',
      'appointment_reminder',
      'promo',
    ]);
  });

  it('takes any language and any parameters for a template known by name only, in the right shape', async () => {
    const api = rawApi(v2);
    const byName = createMockServer({ variant: 2, baseUrl: 'https://names.templates.test/api/v1' });
    byName.listen();
    try {
      const response = await sendTemplate(2, rawApi(byName), templates.order_update({ ...ORDER, language: 'en' }));
      expect(response.status).toBe(200);
    } finally {
      byName.close();
    }
    expect((await sendTemplate(2, api, { name: 'welcome', language: 'en', components: [] })).status).toBe(200);
  });

  it('refuses a templates option that cannot work, naming the field', () => {
    expect(() => new MockService({ templates: { a: { body: ['x', 'x'] } } })).toThrow(
      new InvalidArgumentError(
        'The `templates` option: a.body.1 repeats "x", a parameter of the body: a name is used once per template.',
      ),
    );
    expect(() => new MockService({ templates: ['welcome', ''] })).toThrow(
      new InvalidArgumentError('The `templates` option: 1 must not be empty.'),
    );
    expect(() => new MockService({ templates: 'welcome' as never })).toThrow(
      new InvalidArgumentError('The `templates` option: body must be an array or an object.'),
    );
  });

  it('checks the template of a campaign by name, and runs it in the template’s first language', async () => {
    const api = rawApi(v2);
    const campaign = (template_name: string) =>
      api('POST', '/campaigns', {
        body: {
          name: 'Spring',
          messaging_account_id: 1,
          template_name,
          segment_id: 1,
          scheduled_at: new Date(v2.clock.now() + 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
        },
      });
    const missing = await campaign('spring');
    expect([missing.status, missing.body]).toEqual([
      400,
      errorEnvelope(2, {
        code: 'TEMPLATE_NOT_FOUND',
        message: 'Template "spring" does not exist.',
        details: { template_name: ['is not a template of this account'] },
      }),
    ]);
    await api('POST', '/contacts', { body: { name: 'Ada', phone: TO } });
    expect((await campaign('promo')).status).toBe(201);
    await v2.clock.advance(60_000);
    expect([...v2.store.messages.values()].map((m) => m.content)).toEqual([
      { name: 'promo', language: 'de', components: [] },
    ]);
  });
});

describe('a catalog over real HTTP', () => {
  let server: MockHttpServer;
  beforeAll(async () => {
    server = await startMockHttpServer({ variant: 2, templates: templates.catalog });
  });
  afterAll(() => server.close());

  it('checks sends against it and shows it in GET /_bizmsg/state', async () => {
    const api = rawApi({ baseUrl: server.baseUrl, apiKey: server.apiKey, variant: 2 });
    expect((await sendTemplate(2, api, templates.promo({ language: 'en', code: 'SPRING' }))).status).toBe(200);
    const wrong = await sendTemplate(2, api, {
      ...templates.promo({ language: 'en', code: 'SPRING' }),
      components: [],
    });
    expect([wrong.status, wrong.body.error.details]).toEqual([
      422,
      { 'content.components.body': ['takes 1 parameter (code), got none'] },
    ]);
    const state = (await (await fetch(`${server.origin}/_bizmsg/state`)).json()) as { templates: unknown };
    expect(state.templates).toEqual(templates.catalog);
  });
});

describe('the mock and defineTemplates, for any catalog', () => {
  const send = async (mock: MockService, content: unknown) => {
    const response = await mock.handle(
      new Request(`${mock.baseUrl}/messages/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: TO, messaging_account_id: 1, type: 'template', content }),
      }),
    );
    return { status: response.status, body: (await response.json()) as { error?: { code: string; details: object } } };
  };

  it('accepts exactly what defineTemplates gives: any send it fills, and none with a parameter less or an unlisted language', async () => {
    await fc.assert(
      fc.asyncProperty(
        templateSpec,
        fc.array(paramValue, { minLength: 7, maxLength: 7 }),
        fc.nat(),
        async (spec, values, pick) => {
          const catalog = { t: spec } as TemplateCatalog;
          const mock = new MockService({ variant: 2, templates: catalog });
          const names = [...(spec.header ?? []), ...spec.body, ...spec.buttons.flatMap((button) => button.params)];
          const params = Object.fromEntries(names.map((name, i) => [name, values[i]]));
          const language = spec.languages?.[pick % spec.languages.length] ?? 'xx';
          const filled = (
            defineTemplates(catalog).t as (p: unknown) => { components: Array<{ parameters: unknown[] }> }
          )({ ...params, language });
          expect((await send(mock, filled)).status).toBe(200);
          if (spec.languages !== undefined)
            expect((await send(mock, { ...filled, language: 'zz' })).body.error!.code).toBe('TEMPLATE_NOT_FOUND');
          if (filled.components.length === 0) return;
          const cut = pick % filled.components.length;
          const components = filled.components.map((component, i) =>
            i === cut ? { ...component, parameters: component.parameters.slice(1) } : component,
          );
          const refused = await send(mock, { ...filled, components });
          expect([refused.status, refused.body.error!.code, Object.keys(refused.body.error!.details)]).toEqual([
            422,
            'VALIDATION_ERROR',
            [expect.stringMatching(/^content\.components\.(header|body|button\.\d)$/)],
          ]);
          expect(mock.store.messages.size).toBe(1);
        },
      ),
      { numRuns: 60 },
    );
  });
});
