import { createHmac, timingSafeEqual } from 'node:crypto';
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { signWebhook, verifyWebhook } from 'bizmsg/webhooks';
import { alternate, ratio, type BenchOptions, type Row } from './lib.js';

const SECRET = 'whsec_bench_secret_0123456789';
const body = JSON.stringify({
  event: 'message.delivered',
  timestamp: '2026-11-21T10:00:00Z',
  data: {
    message_id: 'msg_1',
    to: '4915112345678',
    status: 'delivered',
    delivered_at: '2026-11-21T10:00:00Z',
    note: 'x'.repeat(800),
  },
});
const signature = signWebhook(body, SECRET);

/** Hand-written checks with node:crypto; the fastest of the three is the floor. */
function handWrittenBytes(payload: string, header: string): boolean {
  const expected = createHmac('sha256', SECRET).update(payload).digest();
  const given = Buffer.from(header.slice(7), 'hex');
  return given.length === expected.length && timingSafeEqual(expected, given);
}
function handWrittenLatin1(payload: string, given: Uint8Array): boolean {
  const expected = createHmac('sha256', SECRET).update(payload).digest('binary');
  let difference = 0;
  for (let i = 0; i < 32; i++) difference |= expected.charCodeAt(i) ^ given[i]!;
  return difference === 0;
}
function handWrittenHex(payload: string, header: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(payload).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(expected, given);
}

const standard = new Webhook(Buffer.from(SECRET).toString('base64'));
const standardHeaders = (() => {
  const id = 'msg_bench';
  const timestamp = new Date();
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': standard.sign(id, timestamp, body),
  };
})();

/** Operations per second of `op`, over `ms` milliseconds. */
async function opsPerSecond(ms: number, op: () => unknown): Promise<number> {
  let count = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 200; i++) {
      const result = op();
      if (result instanceof Promise ? !(await result) : !result) throw new Error('a benchmark verification failed');
    }
    count += 200;
    elapsed = performance.now() - started;
  }
  return (count / elapsed) * 1000;
}

/** Figure 6: webhook verification throughput (1 KB body). */
export async function measureVerify({ quick }: BenchOptions): Promise<Row[]> {
  const ms = quick ? 100 : 500;
  const ops = await alternate(quick ? 3 : 9, {
    floorBytes: () => opsPerSecond(ms, () => handWrittenBytes(body, signature)),
    floorHex: () => opsPerSecond(ms, () => handWrittenHex(body, signature)),
    floorLatin1: () => opsPerSecond(ms, () => handWrittenLatin1(body, Buffer.from(signature.slice(7), 'hex'))),
    bizmsg: () => opsPerSecond(ms, () => verifyWebhook(body, signature, SECRET)),
    octokit: () => opsPerSecond(ms, () => octokitVerify(SECRET, body, signature)),
    standardwebhooks: () => opsPerSecond(ms, () => standard.verify(body, standardHeaders) !== undefined),
  });
  const floor = Math.max(ops.floorBytes, ops.floorHex, ops.floorLatin1);
  const row = (subject: string, value: number, target?: Row['target']): Row => ({
    figure: '6',
    subject,
    value: Math.round(value),
    unit: 'ops/s',
    baseline: { name: 'fastest hand-written node:crypto', value: Math.round(floor), ratio: ratio(value, floor) },
    ...(target ? { target } : {}),
  });
  return [
    row('bizmsg verifyWebhook', ops.bizmsg, {
      text: '>= 0.9x the floor and > octokit',
      met: ops.bizmsg >= 0.9 * floor && ops.bizmsg > ops.octokit,
    }),
    row('@octokit/webhooks-methods verify', ops.octokit),
    row('standardwebhooks verify', ops.standardwebhooks),
  ];
}
