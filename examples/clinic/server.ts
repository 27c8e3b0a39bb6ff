// The clinic's service, one process: it sends a job's reminders from a CSV, receives the webhooks
// (statuses, and the replies it answers) and serves each patient's outcome.
//   BIZMSG_API_KEY=... BIZMSG_WEBHOOK_SECRET=... npx tsx server.ts patients.csv reminders-2026-12-01
//   curl localhost:3000/outcomes.csv > outcomes.csv
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Variant2Client } from 'bizmsg';
import { fileJournal } from 'bizmsg/bulk';
import { createStatusTracker, fileStatusStore, webhookMiddleware } from 'bizmsg/webhooks';
import { outcomesCsv, receiverOptions, sendReminders, type Clinic } from './clinic.js';
import { optOutFile } from './opt-outs.js';

const [csv = 'patients.csv', job = `reminders-${new Date().toISOString().slice(0, 10)}`] = process.argv.slice(2);
const clinic: Clinic = {
  client: new Variant2Client(), // BIZMSG_API_KEY, BIZMSG_BASE_URL
  accountId: Number(process.env.BIZMSG_ACCOUNT_ID ?? 1),
  journal: (job) => fileJournal(`./journals/${job}`),
  tracker: createStatusTracker({ store: fileStatusStore('./statuses') }),
  optOuts: await optOutFile('./opted-out.txt'),
};
const receive = webhookMiddleware(receiverOptions(clinic, process.env.BIZMSG_WEBHOOK_SECRET!));

const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/webhooks') return void receive(req, res);
  if (req.method === 'GET' && req.url === '/outcomes.csv')
    return void outcomesCsv(clinic, job).then((text) => res.writeHead(200, { 'content-type': 'text/csv' }).end(text));
  res.writeHead(404).end();
});
await new Promise<void>((listening) => server.listen(Number(process.env.PORT ?? 3000), listening));
console.log(`webhooks: http://localhost:${(server.address() as AddressInfo).port}/webhooks`);

const report = await sendReminders(clinic, csv, job);
console.log(
  `${job}: ${report.sent} sent, ${report.suppressed} held back, ${report.failed} failed, ${report.unknown} unknown`,
);
