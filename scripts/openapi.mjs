// Writes openapi/v1.json and v2.json (git-ignored, shipped) from the built mock entry, so the
// shipped documents are exactly what the built mock serves at GET {baseUrl}/openapi.json, and
// openapi/control.json, the document of the mock's control API (GET {origin}/_bizmsg/openapi.json).
// At the package root, not in dist/, so that resolvers without exports maps (node10) find them
// too. Run by `npm run build`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { controlApiDocument, openApiDocument } from '../dist/mock/index.js';

const dir = new URL('../openapi/', import.meta.url);
mkdirSync(dir, { recursive: true });
for (const variant of [1, 2]) {
  writeFileSync(new URL(`v${variant}.json`, dir), `${JSON.stringify(openApiDocument(variant), null, 2)}\n`);
}
writeFileSync(new URL('control.json', dir), `${JSON.stringify(controlApiDocument(), null, 2)}\n`);
