import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('fixtures/findings.ts', import.meta.url));

describe('npm run lint', () => {
  it('flags floating and misused promises and a non-exhaustive switch with the tree config', async () => {
    const eslint = new ESLint({ cwd: root, ignore: false });
    const [result] = await eslint.lintFiles([fixture]);
    const found = result!.messages.map((m) => `${m.line}:${m.ruleId}`);
    expect(found).toEqual([
      '9:@typescript-eslint/no-floating-promises',
      '14:@typescript-eslint/no-misused-promises',
      '21:@typescript-eslint/switch-exhaustiveness-check',
    ]);
  }, 60_000);
});
