// A process running one bulk worker (createBulkWorker) until it is killed or told to stop; the
// BullMQ crash test kills it with SIGKILL mid-job. argv[2] (JSON): { baseUrl, redisPort, concurrency, queue }.
import { createBulkWorker } from '../../../src/bulk/index.js';
import { Variant2Client } from '../../../src/index.js';

const { baseUrl, redisPort, concurrency, queue } = JSON.parse(process.argv[2]!) as {
  baseUrl: string;
  redisPort: number;
  concurrency: number;
  queue: string;
};
const client = new Variant2Client({ apiKey: 'k_worker', baseUrl, rateLimit: false, timeout: 5000 });
const worker = await createBulkWorker({
  connection: { host: '127.0.0.1', port: redisPort },
  client,
  concurrency,
  queue,
  worker: { lockDuration: 1000, stalledInterval: 500 },
});
await worker.waitUntilReady();
process.stdout.write('ready\n');
process.once('SIGTERM', () => void worker.close().then(() => process.exit(0)));
