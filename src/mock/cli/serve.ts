// `bizmsg-mock`: serves the mock over HTTP until stopped, printing what it does.
import { randomBytes } from 'node:crypto';
import { openApiDocument } from '../../openapi/document.js';
import { WEBHOOK_EVENT_KINDS } from '../../schemas/event-kinds.js';
import { startMockHttpServer, type MockHttpServer } from '../http/server.js';
import type { MockKeySpec, MockServerOptions } from '../options.js';
import { SCOPES } from '../../contract/scopes.js';
import { printable } from '../../shared/printable.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { ControlArgumentError } from '../calls/errors.js';
import { CliUsageError, type ServeArgs } from './args.js';
import { onLauncherGone } from './launcher.js';
import { activityLine } from './lines.js';
import { readSeedFile } from './seed-file.js';

/** How long a stop may take to close connections before the process exits anyway. */
const STOP_GRACE_MS = 2000;

/** Serves the mock until SIGINT, SIGTERM, SIGHUP, or the npx that started it going away. */
export async function serve(args: ServeArgs): Promise<void> {
  const { options, forwarding, forwardedAt } = optionsOf(args);
  if (args.openapi) {
    // The document the server would serve, naming the URL it would listen on; nothing is started.
    const shown = args.host.includes(':') ? `[${args.host}]` : args.host;
    const document = openApiDocument(options.variant ?? 2, { serverUrl: `http://${shown}:${args.port}/api/v1` });
    console.log(JSON.stringify(document, null, 2));
    return;
  }
  const server = await start(args, options, forwardedAt);
  // Before anything is printed: whoever reads the banner may stop the mock at once.
  stopOnExit(() => server.close());
  if (!args.quiet) {
    const secrets = server.controlToken === undefined ? [] : [server.controlToken];
    server.mock.subscribe((activity) => {
      const line = activityLine(activity, secrets);
      if (line !== undefined) console.log(line);
    });
  }
  printBanner(server, forwarding, options.keys ?? []);
}

/**
 * Starts the server; what stops it is said as the command line's fault, naming the flag.
 * `forwardedAt`: the field of the seed where the `--forward-to` endpoint is.
 */
async function start(
  args: ServeArgs,
  options: MockServerOptions,
  forwardedAt: string | undefined,
): Promise<MockHttpServer> {
  try {
    return await startMockHttpServer({
      ...options,
      port: args.port,
      host: args.host,
      ...(args.controlToken === undefined ? {} : { controlToken: args.controlToken }),
      ...(args.allowedHosts === undefined ? {} : { allowedHosts: args.allowedHosts }),
    });
  } catch (error) {
    const forwardingProblem = Object.entries(ControlArgumentError.refused(error)?.details ?? {}).find(
      ([field]) => forwardedAt !== undefined && field.startsWith(forwardedAt),
    )?.[1][0];
    if (forwardingProblem !== undefined) throw new CliUsageError(`--forward-to ${args.forwardTo} ${forwardingProblem}`);
    const unheard = listenProblem(error, args.port, args.host);
    if (unheard !== undefined) throw unheard;
    if (InvalidArgumentError.is(error) && args.seedFile !== undefined)
      throw new CliUsageError(`--seed-file ${args.seedFile}: ${error.message.replace(/\.$/, '')}`);
    throw error;
  }
}

/**
 * The mock's options: the seed file's, with the command line's over them (variant, random seed, the
 * forwarded endpoint); the banner's lines of the forwarded endpoint, and the field of the seed it is at.
 */
function optionsOf(args: ServeArgs) {
  const file = args.seedFile === undefined ? {} : readSeedFile(args.seedFile);
  const seed = typeof file.seed === 'object' ? { ...file.seed } : {};
  const random = args.seed ?? (typeof file.seed === 'number' ? file.seed : seed.random);
  if (random !== undefined) seed.random = random;
  const forwarded = forwardedEndpoint(args);
  const forwardedAt = forwarded === undefined ? undefined : `seed.webhooks.${seed.webhooks?.length ?? 0}.`;
  // Seeded, not registered: reset() brings the forwarded endpoint back with the rest of the seed.
  if (forwarded !== undefined) seed.webhooks = [...(seed.webhooks ?? []), forwarded.endpoint];
  const options: MockServerOptions = { ...file, variant: args.variant ?? file.variant ?? 2, seed };
  return { options, forwarding: forwarded?.line, forwardedAt };
}

/** `--forward-to`: the endpoint to seed, and its lines for the banner. */
function forwardedEndpoint(args: ServeArgs) {
  if (args.forwardTo === undefined) return undefined;
  const secret = args.secret ?? `whsec_${randomBytes(18).toString('base64url')}`;
  const events = args.events ?? [...WEBHOOK_EVENT_KINDS];
  const which = args.events === undefined ? 'every event' : events.join(', ');
  return {
    endpoint: { url: args.forwardTo, events, secret },
    line: `Forwarding ${which} to ${args.forwardTo} (kept across resets)\nSigning secret: ${secret}`,
  };
}

/** Most keys of a seed file the banner lists, one a line; the rest are counted. */
const LISTED_KEYS = 20;

/**
 * The banner. `seedKeys`: the keys of the seed file, each shown in full as the seeded key is (the
 * mock's keys are test keys, printed for whoever started it), after it: the seeded key keeps the
 * first `API key:` line, which scripts read.
 */
function printBanner(server: MockHttpServer, forwarding: string | undefined, seedKeys: readonly MockKeySpec[]): void {
  const { mock, baseUrl, origin, apiKey, controlToken } = server;
  const header = mock.variant === 1 ? `X-API-Key: ${apiKey}` : `Authorization: Bearer ${apiKey}`;
  const lines = [
    `bizmsg mock (Variant ${mock.variant}) listening on ${baseUrl}`,
    `API key: ${apiKey}`,
    ...seedKeyLines(mock, seedKeys),
    `OpenAPI document: ${baseUrl}/openapi.json`,
    `Control API: ${origin}/_bizmsg/ (its OpenAPI document: ${origin}/_bizmsg/openapi.json)`,
    ...(controlToken === undefined ? [] : [`Control token: ${controlToken}`]),
    // The token rides in the fragment, which the browser never sends: the page keeps it for its tab.
    `Dashboard: ${origin}/${controlToken === undefined ? '' : `#token=${encodeURIComponent(controlToken)}`}`,
    ...(forwarding === undefined ? [] : [forwarding]),
    `Try: curl -H '${header}' ${baseUrl}/account/me`,
  ];
  console.log(lines.join('\n'));
}

/** `API key from the seed file: KEY (plan P, scopes S)`, one line per key of the seed file, as the mock holds it. */
function seedKeyLines(mock: MockHttpServer['mock'], seedKeys: readonly MockKeySpec[]): string[] {
  const lines = seedKeys.slice(0, LISTED_KEYS).map(({ key }) => {
    const held = mock.store.keys.get(key);
    const scopes =
      held === undefined || held.scopes.length === SCOPES.length
        ? 'all scopes'
        : held.scopes.length === 0
          ? 'no scopes'
          : `scopes ${held.scopes.join(', ')}`;
    const about =
      held === undefined ? '' : ` (plan ${printable(held.plan)}, ${scopes}${held.revoked ? ', revoked' : ''})`;
    return `API key from the seed file: ${printable(key)}${about}`;
  });
  if (seedKeys.length > LISTED_KEYS) lines.push(`… and ${seedKeys.length - LISTED_KEYS} more keys from the seed file`);
  return lines;
}

/**
 * Closes the server and exits 0 on SIGINT, SIGTERM or SIGHUP, and when what started the mock goes
 * away; after `graceMs` it exits though closing is not done.
 */
export function stopOnExit(close: () => Promise<void>, graceMs = STOP_GRACE_MS): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), graceMs).unref();
    void close().finally(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, stop);
  onLauncherGone((gone) => {
    console.error(`bizmsg-mock: stopping: ${gone}.`);
    stop();
  });
}

/** Why a server could not listen on `host`:`port`, in the command line's words (its flags), if a socket error says so. */
export function listenProblem(error: unknown, port: number, host: string): CliUsageError | undefined {
  // The server's own error says it in option words; its cause is Node's, with the code.
  const cause = error instanceof Error ? error.cause : undefined;
  const code = ((cause ?? error) as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE')
    return new CliUsageError(`port ${port} on ${host} is in use (another bizmsg-mock?): pick another with --port`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new CliUsageError(`--host ${host} is not an address of this machine`);
  return undefined;
}
