// Writes dist/openapi/v1.json and v2.json from the built mock entry, so the shipped documents are
// exactly what the built mock serves at GET {baseUrl}/openapi.json. Run by `npm run build`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { openApiDocument } from '../dist/mock/index.js';

const dir = new URL('../dist/openapi/', import.meta.url);
mkdirSync(dir, { recursive: true });
for (const variant of [1, 2]) {
  writeFileSync(new URL(`v${variant}.json`, dir), `${JSON.stringify(openApiDocument(variant), null, 2)}\n`);
}
