// Figure 15: what bizmsg-mock proxy adds to each request, against the same request sent straight to
// the upstream and through Prism's validation proxy (`prism proxy`, the generated Variant 2
// document) in front of the same upstream; each server in its own process.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Pool } from 'undici';
import { alternate, ratio, median, type BenchOptions, type Row } from './lib.js';
import { childServer, freePort, PRISM_VERSION, stop } from './mock.js';

/** Prism's proxy for `document` in front of `upstream`, once it answers. */
async function prism(document: string, upstream: string, headers: Record<string, string>) {
  const port = await freePort();
  const bin = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
  const started = spawn(
    process.execPath,
    [bin, 'proxy', document, upstream, '--host', '127.0.0.1', '--port', String(port)],
    {
      stdio: 'ignore',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 120_000;
  for (;;) {
    if (started.exitCode !== null) throw new Error(`Prism exited with ${started.exitCode}`);
    if (
      await fetch(`${url}/account/me`, { headers }).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (performance.now() > deadline) throw new Error('Prism did not answer within 120 s.');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, close: () => stop(started) };
}

/** Median µs of one GET /account/me, one keep-alive connection, `count` in a row. */
async function latency(base: string, headers: Record<string, string>, count: number): Promise<number> {
  const { origin, pathname } = new URL(`${base}/account/me`);
  const pool = new Pool(origin, { connections: 1 });
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const answer = await pool.request({ method: 'GET', path: pathname, headers });
    await answer.body.arrayBuffer();
    if (answer.statusCode !== 200) throw new Error(`${origin}${pathname} answered ${answer.statusCode}`);
    samples.push((performance.now() - started) * 1000);
  }
  await pool.close();
  return median(samples);
}

/** Figure 15: the proxy's added latency per request, beside Prism's proxy on the same upstream. */
export async function measureProxy({ quick, root }: BenchOptions): Promise<Row[]> {
  const upstream = await childServer([join(root, 'bench/servers/floor.mjs')]);
  const proxy = await childServer([join(root, 'bench/servers/proxy.mjs'), upstream.url]);
  const headers = { authorization: 'Bearer sk_test_bench' };
  const prismProxy = await prism(join(root, 'openapi/v2.json'), upstream.url, headers);
  try {
    const count = quick ? 300 : 2000;
    const subjects = {
      direct: () => latency(upstream.url, headers, count),
      proxy: () => latency(proxy.url, headers, count),
      prism: () => latency(prismProxy.url, headers, count),
    };
    for (const measure of Object.values(subjects)) await measure(); // warm-up
    const µs = await alternate(quick ? 1 : 5, subjects);
    const added = { proxy: µs.proxy - µs.direct, prism: µs.prism - µs.direct };
    console.error(
      `figure 15 medians, µs: direct ${µs.direct.toFixed(0)}; bizmsg-mock proxy ${µs.proxy.toFixed(0)}; Prism proxy ${µs.prism.toFixed(0)}`,
    );
    const subject = 'GET /account/me, one keep-alive connection, sequential; upstream a bare node:http server';
    return [
      {
        figure: '15',
        subject: `added latency per request, bizmsg-mock proxy (forwarding, drift check, journal), ${subject}`,
        value: Math.round(added.proxy),
        unit: 'µs',
        baseline: {
          name: `Prism ${PRISM_VERSION} proxy (validating against v2.json)`,
          value: Math.round(added.prism),
          ratio: ratio(added.proxy, added.prism),
        },
        note: `direct ${Math.round(µs.direct)} µs`,
      },
      {
        figure: '15',
        subject: `request through bizmsg-mock proxy, ${subject}`,
        value: Math.round(µs.proxy),
        unit: 'µs',
        baseline: { name: 'straight to the upstream', value: Math.round(µs.direct), ratio: ratio(µs.proxy, µs.direct) },
      },
    ];
  } finally {
    await Promise.all([prismProxy.close(), proxy.close(), upstream.close()]);
  }
}
