// Figure 9: a serverless handler's cold start, bizmsg against openai and stripe, on each Node.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { dirname } from 'node:path';
import { alternate, ratio, type BenchOptions, type Row } from './lib.js';
import { localServer } from './local-server.js';
import { missingRows, nodeBinaries } from './node-versions.js';
import { probe } from './packed.js';

const body = JSON.stringify({ id: 1, name: 'Ada Lovelace', phone: '+4915112345678', object: 'customer' });

/**
 * Figure 9: wall time of a fresh process that imports the SDK, makes its client, sends one request
 * to a local server (in the bench's process, so its start is not counted) and exits: what a
 * serverless function's first invocation pays. Median of alternating runs, on each Node.
 */
export async function measureColdStart({ quick }: BenchOptions): Promise<Row[]> {
  const server = await localServer((_, res) => {
    const now = Math.floor(Date.now() / 1000);
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-ratelimit-limit': '1000000',
      'x-ratelimit-remaining': '999999',
      'x-ratelimit-reset': String(now - (now % 60) + 60),
    });
    res.end(body);
  });
  try {
    const script = await probe('cold-start.mjs');
    const { found, missing } = nodeBinaries(quick);
    const rows: Row[] = [];
    for (const node of found) {
      // Asynchronously: the server answering the child runs in this process.
      const run = (subject: string) => async () => {
        const started = performance.now();
        await promisify(execFile)(node.path, [script, subject, server.origin], { cwd: dirname(script) });
        return performance.now() - started;
      };
      const ms = await alternate(quick ? 3 : 11, {
        bare: run('bare'),
        fetch: run('fetch'),
        bizmsg: run('bizmsg'),
        openai: run('openai'),
        stripe: run('stripe'),
      });
      const row = (subject: string, value: number, target?: Row['target']): Row => ({
        figure: '9',
        subject: `${subject}, ${node.version}`,
        value: Math.round(value),
        unit: 'ms',
        baseline: { name: 'openai', value: Math.round(ms.openai), ratio: ratio(value, ms.openai) },
        ...(target ? { target } : {}),
      });
      rows.push(
        row('bizmsg: start, import, new client, first request, exit', ms.bizmsg, {
          text: 'ahead of openai and stripe',
          met: ms.bizmsg < ms.openai && ms.bizmsg < ms.stripe,
        }),
        row('stripe, the same handler', ms.stripe),
        row('raw fetch, the same handler without an SDK', ms.fetch),
        {
          figure: '9',
          subject: `bare node, ${node.version}`,
          value: Math.round(ms.bare),
          unit: 'ms',
          note: 'process start and exit alone',
        },
      );
    }
    rows.push(...missingRows('9', missing));
    return rows;
  } finally {
    await server.close();
  }
}
