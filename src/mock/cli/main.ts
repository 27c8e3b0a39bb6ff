#!/usr/bin/env node
import { openApiDocument } from '../../openapi/document.js';
import { CliUsageError, parseCliArgs, USAGE } from './args.js';
import { startMockHttpServer } from '../http/server.js';

/** `bizmsg-mock`: serves the reference service over HTTP until interrupted. */
async function main(): Promise<void> {
  const { port, host, variant, seed, openapi, help } = parseCliArgs(process.argv.slice(2));
  if (help) {
    console.log(USAGE);
    return;
  }
  if (openapi) {
    // The document the server would serve, naming the URL it would listen on; nothing is started.
    const shown = host.includes(':') ? `[${host}]` : host;
    console.log(JSON.stringify(openApiDocument(variant, { serverUrl: `http://${shown}:${port}/api/v1` }), null, 2));
    return;
  }
  const server = await startMockHttpServer({ port, host, variant, seed });
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
  if (error instanceof CliUsageError) {
    console.error(`bizmsg-mock: ${error.message}`);
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
