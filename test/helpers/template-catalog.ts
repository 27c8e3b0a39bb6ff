import { defineTemplates } from '../../src/index.js';
import { createMockServer } from '../../src/mock/index.js';
import { useMocks } from './mock-api.js';

/**
 * The templates the tests declare: one with several languages, a header, a body and buttons of
 * both kinds (one without parameters), one with a single language and none, one that lists no
 * language, and one more with a body.
 */
export const CATALOG = {
  order_update: {
    languages: ['en', 'de'],
    header: ['store'],
    body: ['name', 'order_id'],
    buttons: [
      { sub_type: 'url', params: ['tracking'] },
      { sub_type: 'quick_reply', params: [] },
      { sub_type: 'quick_reply', params: ['stop'] },
    ],
  },
  welcome: { languages: ['en'] },
  reminder: { body: ['when'] },
  promo: { languages: ['de', 'en'], body: ['code'] },
} as const;

/** A value for every parameter of `order_update`, in German. */
export const ORDER = {
  language: 'de',
  store: 'Acme',
  name: 'Ada',
  order_id: 'A-17',
  tracking: 'x9',
  stop: 'STOP',
} as const;

/**
 * `CATALOG` defined, and a mock of each variant holding it, listening for the whole file: Variant 1
 * given what `defineTemplates` returned, Variant 2 its `catalog` (the option takes both).
 */
export function catalogMocks(host: string) {
  const templates = defineTemplates(CATALOG);
  const v1 = createMockServer({ variant: 1, baseUrl: `https://v1.${host}/api/v1`, templates });
  const v2 = createMockServer({ variant: 2, baseUrl: `https://v2.${host}/api/v1`, templates: templates.catalog });
  useMocks(v1, v2);
  return { templates, v1, v2 };
}
