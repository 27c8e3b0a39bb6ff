// Builds the mock's dashboard (src/mock/dashboard/page/, Preact TSX) for browsers into dist/dashboard/:
// one minified script and one stylesheet named by their hash, and index.html naming them. Run by
// `npm run build`, after tsup (which empties dist/). The mock serves these files; nothing imports them.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

const out = new URL('../dist/dashboard/', import.meta.url);
const page = new URL('../src/mock/dashboard/page/', import.meta.url);

// Alone (not after tsup), the last build's hashed files would stay beside the new ones.
rmSync(out, { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: [new URL('main.tsx', page).pathname],
  outdir: out.pathname,
  entryNames: '[name]-[hash]',
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  // What a developer's browser runs: the two latest years of Chromium, Firefox and Safari.
  target: ['chrome120', 'firefox120', 'safari17'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(metafile.outputs).map((path) => basename(path));
const script = outputs.find((name) => name.endsWith('.js'));
const style = outputs.find((name) => name.endsWith('.css'));
if (script === undefined || style === undefined)
  throw new Error(`dashboard build: expected a .js and a .css, got ${outputs}`);
const html = readFileSync(new URL('index.html', page), 'utf8')
  .replace('%SCRIPT%', `/_dashboard/${script}`)
  .replace('%STYLE%', `/_dashboard/${style}`);
writeFileSync(new URL('index.html', out), html);

// The bundle carries code of these packages: their licences go with it (the mock never serves this file).
const bundled = [
  ...new Set(
    Object.keys(metafile.inputs).flatMap((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? []),
  ),
];
const licences = bundled.sort().map((name) => {
  const dir = new URL(`../node_modules/${name}/`, import.meta.url);
  const { version } = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8'));
  return `${name} ${version}\n\n${readFileSync(new URL('LICENSE', dir), 'utf8').trim()}\n`;
});
writeFileSync(new URL('THIRD-PARTY-LICENSES.txt', out), `${licences.join('\n---\n\n')}`);
