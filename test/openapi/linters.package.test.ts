// The shipped documents under two linters users run: Spectral (spectral:oas) and Redocly (recommended).
// No error, and only the warnings docs/decisions.md explains ("OpenAPI documents for generators").
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const documents = [1, 2].map((variant) => join(root, `openapi/v${variant}.json`));

interface SpectralProblem {
  code: string;
  message: string;
  severity: number;
  source: string;
}
interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; message: string }>;
}

let dir: string;
let spectral: SpectralProblem[];
let redocly: RedoclyReport[];

/** Runs both linters once over both documents, side by side (Redocly once per document: it reports one JSON each). */
async function lint(): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'bizmsg-lint-'));
  const ruleset = join(dir, 'spectral.yaml');
  writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
  const env = { ...process.env, NO_COLOR: '1', REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const cli = (path: string, args: string[]) =>
    run(process.execPath, [join(root, 'node_modules', path), ...args], { env, cwd: dir, maxBuffer: 16 << 20 });
  const [spectralRun, ...redoclyRuns] = await Promise.all([
    // Spectral exits 0 on warnings and 1 on errors; its JSON is on stdout either way.
    cli('@stoplight/spectral-cli/dist/index.js', ['lint', '-r', ruleset, '-f', 'json', ...documents]).catch(
      (error: { stdout: string }) => error,
    ),
    ...documents.map((document) =>
      cli('@redocly/cli/bin/cli.js', ['lint', document, '--extends=recommended', '--format=json']).catch(
        (error: { stdout: string }) => error,
      ),
    ),
  ]);
  spectral = JSON.parse(spectralRun.stdout) as SpectralProblem[];
  redocly = redoclyRuns.map((result) => JSON.parse(result.stdout) as RedoclyReport);
}

/** Problems counted by document and rule. */
function counted(problems: readonly SpectralProblem[]): Record<string, Record<string, number>> {
  const counts: Record<string, Record<string, number>> = {};
  for (const { source, code } of problems) {
    const file = source.split('/').pop()!;
    counts[file] ??= {};
    counts[file][code] = (counts[file][code] ?? 0) + 1;
  }
  return counts;
}

describe('the documents under Spectral and Redocly', () => {
  beforeAll(lint, 60_000);
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('Spectral (spectral:oas): no error; the warnings are the two explained ones, once per operation and document', () => {
    expect(spectral.filter((problem) => problem.severity === 0)).toEqual([]);
    expect(counted(spectral)).toEqual({
      // Every operation names its scope as a role of its apiKey/bearer scheme: OpenAPI 3.1 allows it, the rule predates it.
      'v1.json': { 'info-contact': 1, 'oas3-operation-security-defined': 9 },
      'v2.json': { 'info-contact': 1, 'oas3-operation-security-defined': 13 },
    });
    const scopes = spectral.filter((p) => p.code === 'oas3-operation-security-defined').map((p) => p.message);
    for (const message of scopes) expect(message).toMatch(/^"[a-z]+:[a-z]+" must be listed among scopes\.$/);
  });

  it('Redocly (recommended): no error, no warning', () => {
    expect(redocly.map((report) => [report.totals, report.problems])).toEqual([
      [{ errors: 0, warnings: 0, ignored: 0 }, []],
      [{ errors: 0, warnings: 0, ignored: 0 }, []],
    ]);
  });
});
