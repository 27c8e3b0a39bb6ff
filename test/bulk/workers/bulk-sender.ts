// A process that runs one bulk job with a file journal and prints its report and results as one
// JSON line: the crash test kills it with SIGKILL mid-run, then runs it again to resume.
// Told by argv[2] (JSON): { baseUrl, journal, recipients, concurrency, suppressEvery?, resendUnknown? }:
// with `suppressEvery` N, every Nth customer has opted out (suppress says so).
import { fileJournal, sendBulk, type BulkResult } from '../../../src/bulk/index.js';
import { Variant2Client } from '../../../src/index.js';

const { baseUrl, journal, recipients, concurrency, suppressEvery, resendUnknown } = JSON.parse(process.argv[2]!) as {
  baseUrl: string;
  journal: string;
  recipients: number;
  concurrency: number;
  suppressEvery?: number;
  resendUnknown?: boolean;
};

interface Customer {
  phone: string;
  name: string;
  index: number;
}

function* customers(): Generator<Customer> {
  for (let i = 0; i < recipients; i++) yield { phone: `+49151${10_000_000 + i}`, name: `Customer ${i}`, index: i };
}

const client = new Variant2Client({ apiKey: 'k_crash', baseUrl, rateLimit: false, timeout: 5000 });
const run = sendBulk(client, {
  id: 'crash-job',
  recipients: customers(),
  journal: fileJournal(journal),
  concurrency,
  resendUnknown: resendUnknown === true,
  ...(suppressEvery === undefined ? {} : { suppress: (c: Customer) => c.index % suppressEvery === 0 && 'opted out' }),
  message: (c: Customer) => ({ to: c.phone, messaging_account_id: 1, type: 'text', content: { body: `Hi ${c.name}` } }),
});
const results: BulkResult[] = [];
for await (const result of run.results()) results.push(result);
const report = await run;
process.stdout.write(`${JSON.stringify({ report, results })}\n`);
