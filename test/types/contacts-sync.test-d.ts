import { expectTypeOf, test } from 'vitest';
import {
  Variant1Client,
  Variant2Client,
  type ContactSyncProgress,
  type ContactSyncReport,
  type ContactSyncResult,
  type ContactSyncRow,
  type ContactSyncStatus,
} from '../../src/index.js';

test('contacts.sync on both variants: rows with a phone, a run awaitable for the report, typed results and progress', () => {
  const v2 = new Variant2Client({ apiKey: 'k', baseUrl: 'https://x.test/api/v1' });
  const v1 = new Variant1Client({ apiKey: 'k', baseUrl: 'https://x.test/api/v1' });
  const run = v2.contacts.sync([
    { phone: '+49 151 1234 5678', name: 'Ada', tags: ['vip'], custom_fields: { plan: 1 } },
  ]);
  expectTypeOf(run).toExtend<PromiseLike<ContactSyncReport>>();
  expectTypeOf(run.results()).toExtend<AsyncIterable<ContactSyncResult>>();
  run.on('progress', (p) => expectTypeOf(p).toEqualTypeOf<ContactSyncProgress>());
  expectTypeOf<ContactSyncStatus>().toEqualTypeOf<'created' | 'updated' | 'unchanged' | 'failed' | 'merged'>();
  expectTypeOf<ContactSyncReport['aborted']>().toEqualTypeOf<boolean>();
  v1.contacts.sync(
    (async function* (): AsyncGenerator<ContactSyncRow> {
      yield { phone: '4915112345678' };
    })(),
    { concurrency: 4, signal: AbortSignal.timeout(1000) },
  );
  // @ts-expect-error a row needs its phone
  v2.contacts.sync([{ name: 'Ada' }]);
  // @ts-expect-error tags are a list
  v2.contacts.sync([{ phone: '+4915112345678', tags: 'vip' }]);
  // @ts-expect-error no such option
  v2.contacts.sync([], { journal: 'x' });
});
