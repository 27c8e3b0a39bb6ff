// Figure 11's heap probe, from the built package: sendBulk with a fileJournal over `recipients`
// generated one by one, in a process started with --expose-gc and a 100 MB heap limit (a run that
// held its input would die). Samples the live heap (after a full GC) every 250 ms and prints
// {"peakMb", "sent"} as one JSON line. argv[2] (JSON): { baseUrl, journal, recipients, concurrency }.
import { Variant2Client } from 'bizmsg';
import { fileJournal, sendBulk } from 'bizmsg/bulk';

const { baseUrl, journal, recipients, concurrency } = JSON.parse(process.argv[2]);
function* phones() {
  for (let i = 0; i < recipients; i++) yield `+49151${10_000_000 + i}`;
}
let peak = 0;
const sample = () => {
  globalThis.gc();
  peak = Math.max(peak, process.memoryUsage().heapUsed);
};
const sampler = setInterval(sample, 250);
const client = new Variant2Client({ apiKey: 'bm_live_bench_bulk', baseUrl, rateLimit: false });
const report = await sendBulk(client, {
  id: 'heap',
  recipients: phones(),
  journal: fileJournal(journal),
  concurrency,
  message: (to) => ({ to, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } }),
});
clearInterval(sampler);
sample();
console.log(JSON.stringify({ peakMb: peak / 2 ** 20, sent: report.sent }));
