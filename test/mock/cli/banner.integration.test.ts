import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { useMockProcesses } from '../../helpers/mock-process.js';

// The banner of `bizmsg-mock` (its source, through tsx) started from a seed file: each key of the
// file is shown, in full as the seeded key is, on a line of its own after the seeded key's
// `API key:` line (which scripts and the examples read), and works. The built bin:
// emulator.package.test.ts.

const SOURCE = [
  process.execPath,
  '--import',
  'tsx',
  fileURLToPath(new URL('../../../src/mock/cli/main.ts', import.meta.url)),
];
const dir = mkdtempSync(join(tmpdir(), 'bizmsg-banner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const start = useMockProcesses();

/** The lines the mock printed up to its `Try:` line. */
const bannerOf = (output: string) => output.slice(0, output.indexOf('\nTry: ')).split('\n');

function seedFile(name: string, options: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(options));
  return file;
}

describe('the banner of bizmsg-mock started from a seed file', () => {
  it("shows each of the seed file's keys after the seeded key, with its plan and scopes", async () => {
    const file = seedFile('keys.json', {
      variant: 1,
      keys: [
        { key: 'sk_test_app', plan: 'starter', scopes: ['contacts:read', 'messages:send'] },
        { key: 'sk_test_ci' },
        { key: 'sk_test_none', scopes: [] },
        { key: 'sk_test_old', revoked: true },
      ],
    });
    const mock = await start(['--seed-file', file, '--quiet'], { command: SOURCE });
    await mock.printed(/\nTry: /);
    const banner = bannerOf(mock.output());
    expect(banner.slice(0, 6)).toEqual([
      `bizmsg mock (Variant 1) listening on ${mock.url}`,
      `API key: ${mock.apiKey}`,
      'API key from the seed file: sk_test_app (plan starter, scopes contacts:read, messages:send)',
      'API key from the seed file: sk_test_ci (plan pro, all scopes)',
      'API key from the seed file: sk_test_none (plan pro, no scopes)',
      'API key from the seed file: sk_test_old (plan pro, all scopes, revoked)',
    ]);
    // The seeded key keeps the one `API key:` line that scripts read (`/API key: (\S+)/`).
    expect(mock.apiKey).toMatch(/^sk_test_[0-9a-f]{32}$/);
    expect(banner.filter((line) => line.startsWith('API key: '))).toEqual([`API key: ${mock.apiKey}`]);
    // The keys shown are the mock's: the app's key reads contacts, the revoked one is refused.
    const contacts = (key: string) => fetch(`${mock.url}/contacts`, { headers: { 'x-api-key': key } });
    expect((await contacts('sk_test_app')).status).toBe(200);
    expect((await contacts('sk_test_old')).status).toBe(401);
  });

  it('shows a Variant 2 seed key too, inert, and no such line without keys in the file', async () => {
    const file = seedFile('v2.json', { variant: 2, keys: [{ key: 'sk_test_\u001b]0;x\u0007v2', plan: 'starter' }] });
    const withKey = await start(['--seed-file', file, '--quiet'], { command: SOURCE });
    await withKey.printed(/\nTry: /);
    expect(bannerOf(withKey.output()).slice(1, 3)).toEqual([
      `API key: ${withKey.apiKey}`,
      'API key from the seed file: sk_test_\\u001b]0;x\\u0007v2 (plan starter, all scopes)',
    ]);
    const without = await start(['--seed-file', seedFile('none.json', { variant: 2 }), '--quiet'], {
      command: SOURCE,
    });
    await without.printed(/\nTry: /);
    expect(without.output()).not.toContain('from the seed file');
  });

  it('shows the first 20 keys of a seed file with many, and counts the others', async () => {
    const keys = Array.from({ length: 23 }, (_, i) => ({ key: `sk_test_many_${String(i).padStart(2, '0')}` }));
    const mock = await start(['--seed-file', seedFile('many.json', { variant: 1, keys }), '--quiet'], {
      command: SOURCE,
    });
    await mock.printed(/\nTry: /);
    const shown = bannerOf(mock.output()).filter((line) => line.includes('from the seed file'));
    expect(shown).toEqual([
      ...keys.slice(0, 20).map(({ key }) => `API key from the seed file: ${key} (plan pro, all scopes)`),
      '… and 3 more keys from the seed file',
    ]);
  });
});
