// A process that syncs the numbers `numbers` named `name`, starting at `startAt` (epoch ms, so that
// two processes start together), and prints its report as one JSON line.
// Told by argv[2] (JSON): { baseUrl, apiKey, numbers, name, startAt }.
import { Variant2Client } from '../../../src/index.js';
import { digitsOf, spell } from '../fixtures.js';

const { baseUrl, apiKey, numbers, name, startAt } = JSON.parse(process.argv[2]!) as {
  baseUrl: string;
  apiKey: string;
  numbers: number[];
  name: string;
  startAt: number;
};

const rows = numbers.map((n, i) => ({ phone: spell(digitsOf(n), i), name }));
const client = new Variant2Client({ apiKey, baseUrl });
await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
const report = await client.contacts.sync(rows, { concurrency: 8 });
process.stdout.write(`${JSON.stringify(report)}\n`);
