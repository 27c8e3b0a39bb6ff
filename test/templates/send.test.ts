import { describe, expect, it } from 'vitest';
import { TemplateNotFoundError, ValidationError, Variant1Client, Variant2Client } from '../../src/index.js';
import { catalogMocks, ORDER } from '../helpers/template-catalog.js';
import { scriptedFetch } from '../helpers/scripted-fetch.js';

const TO = '+4915112345678';
const { templates, v1, v2 } = catalogMocks('sends.test');
const client1 = new Variant1Client({ apiKey: v1.apiKey, baseUrl: v1.baseUrl, rateLimit: false });
const client2 = new Variant2Client({ apiKey: v2.apiKey, baseUrl: v2.baseUrl, rateLimit: false });

describe('typed templates, sent by the clients to a mock holding their catalog', () => {
  it('sends what defineTemplates fills, through both variants and Variant 2’s send', async () => {
    const order = templates.order_update(ORDER);
    await client2.messages.sendTemplate({ to: TO, messaging_account_id: 1, ...order });
    await client2.messages.send({ to: TO, messaging_account_id: 1, type: 'template', content: templates.welcome() });
    await client1.messages.sendTemplate({ to: TO, ...order });
    expect([...v2.store.messages.values()].map((m) => m.content)).toEqual([order, templates.welcome()]);
    expect([...v1.store.messages.values()].map((m) => m.content)).toEqual([order]);
  });

  it('names the template and language sent when the service does not know them', async () => {
    const order = templates.order_update({ ...ORDER, language: 'en' });
    const refused = client2.messages.sendTemplate({ to: TO, messaging_account_id: 1, ...order, language: 'fr' });
    await expect(refused).rejects.toThrow(TemplateNotFoundError);
    await expect(refused).rejects.toThrow(
      'POST /messages/send failed with 400 TEMPLATE_NOT_FOUND: Template "order_update" in language "fr" does not exist (it has en, de).',
    );
    await expect(client1.messages.sendTemplate({ to: TO, ...order, name: 'order' })).rejects.toThrow(
      'POST /messages/template failed with 400 TEMPLATE_NOT_FOUND: Template "order" in language "en" does not exist.',
    );
    const campaign = client2.campaigns.create({
      name: 'Spring',
      messaging_account_id: 1,
      template_name: 'spring',
      segment_id: 1,
      scheduled_at: '2099-01-01T00:00:00Z',
    });
    await expect(campaign).rejects.toThrow(
      'POST /campaigns failed with 400 TEMPLATE_NOT_FOUND: Template "spring" does not exist.',
    );
  });

  it('says which component a parameter count is wrong for', async () => {
    const { components } = templates.order_update(ORDER);
    const sent = client2.messages.sendTemplate({
      to: TO,
      messaging_account_id: 1,
      name: 'welcome',
      language: 'en',
      components,
    });
    await expect(sent).rejects.toThrow(ValidationError);
    await expect(sent).rejects.toMatchObject({
      details: {
        'content.components.header': ['takes no parameters, got 1'],
        'content.components.body': ['takes no parameters, got 2'],
        'content.components.button.0': ['is not a button of the template (it has 0)'],
        'content.components.button.2': ['is not a button of the template (it has 0)'],
      },
    });
  });
});

describe('TemplateNotFoundError from a service whose message does not name the template', () => {
  const terse = () =>
    scriptedFetch(
      new Response(JSON.stringify({ error: { code: 'TEMPLATE_NOT_FOUND', message: 'template does not exist' } }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      }),
    );

  it('adds the name and language that were sent', async () => {
    const { fetch } = terse();
    const client = new Variant2Client({ apiKey: 'sk_test', baseUrl: 'https://x.test/api/v1', fetch, rateLimit: false });
    await expect(
      client.messages.sendTemplate({ to: TO, messaging_account_id: 1, ...templates.welcome() }),
    ).rejects.toThrow(
      'POST /messages/send failed with 400 TEMPLATE_NOT_FOUND: template does not exist (sent: template "welcome" in language "en").',
    );
    await expect(
      client.campaigns.create({
        name: 'x',
        messaging_account_id: 1,
        template_name: 'spring_sale',
        segment_id: 1,
        scheduled_at: '2099-01-01T00:00:00Z',
      }),
    ).rejects.toThrow(
      'POST /campaigns failed with 400 TEMPLATE_NOT_FOUND: template does not exist (sent: template "spring_sale").',
    );
    const v1client = new Variant1Client({
      apiKey: 'sk_test',
      baseUrl: 'https://x.test/api/v1',
      fetch,
      rateLimit: false,
    });
    await expect(
      v1client.messages.sendTemplate({ to: TO, name: 'a'.repeat(60), language: 'de', components: [] }),
    ).rejects.toThrow(`template does not exist (sent: template "${'a'.repeat(40)}…" in language "de").`);
  });
});
