// Makes msw's types as optional as msw: tsup writes `import { HttpHandler } from 'msw'` into the
// declarations of bizmsg/mock (createMockServer's `handlers`, createMockWorker's `start` options),
// and without msw installed that import fails the type-check of every project that imports
// bizmsg/mock, connectMock users included, unless it skips library checks (TS2307). Each such
// import is marked `@ts-ignore`: with msw installed its types are msw's own; without it they are
// `any`, in types no such project uses. Run by `npm run build`, after tsup.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const PEERS = /\bfrom ['"]msw(\/[\w-]+)?['"]/;
const MARK =
  '// @ts-ignore -- msw is an optional peer: without it these types are `any` (see scripts/optional-peer-types.mjs)';

const dist = new URL('../dist/', import.meta.url);
let found = 0;
for (const file of readdirSync(dist, { recursive: true })) {
  if (!/\.d\.c?ts$/.test(file)) continue;
  const url = new URL(file, dist);
  const lines = readFileSync(url, 'utf8').split('\n');
  const out = lines.flatMap((line, i) => {
    if (!PEERS.test(line)) return [line];
    found += 1;
    return lines[i - 1] === MARK ? [line] : [MARK, line];
  });
  if (out.length !== lines.length) writeFileSync(url, out.join('\n'));
}
// tsup writes them on every build: finding none means the declarations changed shape, and the mark
// must follow them (test/mock/types-without-msw.package.test.ts would fail next).
if (found === 0) throw new Error('optional-peer-types: no import of msw found in dist/**/*.d.ts');
