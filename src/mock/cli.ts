#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { openApiDocument } from '../openapi/document.js';
import { startMockHttpServer } from './http-server.js';

const usage = 'Usage: bizmsg-mock [--port 4010] [--host 127.0.0.1] [--variant 1|2] [--seed N] [--openapi]';

/** `bizmsg-mock`: serves the reference service over HTTP until interrupted. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      variant: { type: 'string', default: '2' },
      seed: { type: 'string', default: '1' },
      help: { type: 'boolean', short: 'h', default: false },
      openapi: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = Number(values.port);
  const variant = Number(values.variant);
  const seed = Number(values.seed);
  if (
    !Number.isInteger(port) ||
    port < 0 ||
    port > 65535 ||
    (variant !== 1 && variant !== 2) ||
    !Number.isInteger(seed)
  ) {
    console.error(usage);
    process.exitCode = 2;
    return;
  }
  if (values.openapi) {
    // The document the server would serve, naming the URL it would listen on; nothing is started.
    const host = values.host.includes(':') ? `[${values.host}]` : values.host;
    console.log(JSON.stringify(openApiDocument(variant, { serverUrl: `http://${host}:${port}/api/v1` }), null, 2));
    return;
  }
  const server = await startMockHttpServer({ port, host: values.host, variant, seed });
  const header = variant === 1 ? `X-API-Key: ${server.apiKey}` : `Authorization: Bearer ${server.apiKey}`;
  console.log(`bizmsg mock (Variant ${variant}) listening on ${server.url}`);
  console.log(`API key: ${server.apiKey}`);
  console.log(`OpenAPI document: ${server.url}/openapi.json`);
  console.log(`Try: curl -H '${header}' ${server.url}/account/me`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
