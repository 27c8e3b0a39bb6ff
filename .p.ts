import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileJournal, memoryJournal, sendBulk } from './src/bulk/index.js';
import { Variant2Client } from './src/index.js';
import { startCountingServer } from './test/helpers/counting-server.js';
const server = await startCountingServer(() => ({ kind: 'ok', delayMs: 2 }));
const client = new Variant2Client({ apiKey: 'k', baseUrl: server.baseUrl, rateLimit: false });
const text = (to: string) => ({ to, messaging_account_id: 1, type: 'text' as const, content: { body: 'Hi' } });
function* phones(n: number, k: number) { for (let i = 0; i < n; i++) yield `+4915${k}${10_000_000 + i}`; }
let k = 0;
for (const kind of ['memory', 'file', 'memory', 'file']) {
  const journal = kind === 'file' ? fileJournal(join(mkdtempSync(join(tmpdir(), 'p-')), 'j')) : memoryJournal();
  const t = performance.now();
  const r = await sendBulk(client, { id: 'p', recipients: phones(3000, ++k), message: text, journal, concurrency: 16 });
  console.log(kind, r.sent, ((performance.now() - t) / 1000).toFixed(1), 's');
}
await server.close();
