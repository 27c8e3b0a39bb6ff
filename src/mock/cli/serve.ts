// `bizmsg-mock`: serves the mock over HTTP until stopped, printing what it does.
import { randomBytes } from 'node:crypto';
import { openApiDocument } from '../../openapi/document.js';
import { WEBHOOK_EVENT_KINDS } from '../../schemas/webhook-endpoint.js';
import { startMockHttpServer, type MockHttpServer } from '../http/server.js';
import type { MockServerOptions } from '../options.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { CliUsageError, type ServeArgs } from './args.js';
import { activityLine } from './lines.js';
import { readSeedFile } from './seed-file.js';

/** How long a stop may take to close connections before the process exits anyway. */
const STOP_GRACE_MS = 2000;

/** Serves the mock until SIGINT, SIGTERM, SIGHUP, or its parent (npx) going away. */
export async function serve(args: ServeArgs): Promise<void> {
  const options = optionsOf(args);
  if (args.openapi) {
    // The document the server would serve, naming the URL it would listen on; nothing is started.
    const shown = args.host.includes(':') ? `[${args.host}]` : args.host;
    const document = openApiDocument(options.variant ?? 2, { serverUrl: `http://${shown}:${args.port}/api/v1` });
    console.log(JSON.stringify(document, null, 2));
    return;
  }
  const server = await start(args, options);
  // Before anything is printed: whoever reads the banner may stop the mock at once.
  stopOnExit(() => server.close());
  if (!args.quiet) {
    server.mock.subscribe((activity) => {
      const line = activityLine(activity);
      if (line !== undefined) console.log(line);
    });
  }
  printBanner(server, forward(server, args));
}

/** Starts the server; what stops it is said as the command line's fault, naming the flag. */
async function start(args: ServeArgs, options: MockServerOptions): Promise<MockHttpServer> {
  try {
    return await startMockHttpServer({
      ...options,
      port: args.port,
      host: args.host,
      ...(args.controlToken === undefined ? {} : { controlToken: args.controlToken }),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new CliUsageError(
        `port ${args.port} on ${args.host} is in use (another bizmsg-mock?): pick another with --port`,
      );
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new CliUsageError(`--host ${args.host} is not an address of this machine`);
    if (InvalidArgumentError.is(error) && args.seedFile !== undefined)
      throw new CliUsageError(`--seed-file ${args.seedFile}: ${error.message.replace(/\.$/, '')}`);
    throw error;
  }
}

/** The mock's options: the seed file's, with the command line's variant and random seed over them. */
function optionsOf(args: ServeArgs): MockServerOptions {
  const file = args.seedFile === undefined ? {} : readSeedFile(args.seedFile);
  const seed =
    args.seed === undefined
      ? file.seed
      : typeof file.seed === 'object'
        ? { ...file.seed, random: args.seed }
        : args.seed;
  return { ...file, variant: args.variant ?? file.variant ?? 2, ...(seed === undefined ? {} : { seed }) };
}

/** `--forward-to`: registers the endpoint; its line for the banner. */
function forward(server: MockHttpServer, args: ServeArgs): string | undefined {
  if (args.forwardTo === undefined) return undefined;
  const secret = args.secret ?? `whsec_${randomBytes(18).toString('base64url')}`;
  const events = args.events ?? [...WEBHOOK_EVENT_KINDS];
  server.mock.registerWebhook({ url: args.forwardTo, events, secret });
  const which = args.events === undefined ? 'every event' : events.join(', ');
  return `Forwarding ${which} to ${args.forwardTo}\nSigning secret: ${secret}`;
}

function printBanner(server: MockHttpServer, forwarding: string | undefined): void {
  const { mock, url, origin, apiKey, controlToken } = server;
  const header = mock.variant === 1 ? `X-API-Key: ${apiKey}` : `Authorization: Bearer ${apiKey}`;
  const lines = [
    `bizmsg mock (Variant ${mock.variant}) listening on ${url}`,
    `API key: ${apiKey}`,
    `OpenAPI document: ${url}/openapi.json`,
    `Control API: ${origin}/_bizmsg/ (its OpenAPI document: ${origin}/_bizmsg/openapi.json)`,
    ...(controlToken === undefined ? [] : [`Control token: ${controlToken}`]),
    // The token rides in the fragment, which the browser never sends: the page keeps it for its tab.
    `Dashboard: ${origin}/${controlToken === undefined ? '' : `#token=${encodeURIComponent(controlToken)}`}`,
    ...(forwarding === undefined ? [] : [forwarding]),
    `Try: curl -H '${header}' ${url}/account/me`,
  ];
  console.log(lines.join('\n'));
}

/**
 * Closes the server and exits 0 on SIGINT, SIGTERM or SIGHUP, and when the parent process goes
 * away: `npx` does not pass SIGTERM on, so a mock started through it would outlive it and keep
 * its port (the next start failing with EADDRINUSE).
 */
function stopOnExit(close: () => Promise<void>): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
    void close().finally(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, stop);
  const parent = process.ppid;
  // Orphans are adopted by init (1) or a subreaper: the parent id changes.
  if (parent > 1) setInterval(() => process.ppid !== parent && stop(), 500).unref();
}
