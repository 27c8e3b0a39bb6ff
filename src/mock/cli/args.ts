// The command line of bizmsg-mock: its two commands, their flags and values, and a usage error that
// names the first thing wrong and what it accepts.
import { parseArgs } from 'node:util';
import { cutShort, showValue } from '../../shared/describe.js';
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '../../schemas/event-kinds.js';
import { isAllowedHostName } from '../rules/guard/request-guard.js';

/** The usage lines of `bizmsg-mock`. */
export const USAGE = [
  'Usage: bizmsg-mock [--port 4010] [--host 127.0.0.1] [--variant 1|2] [--seed N] [--seed-file FILE]',
  '                   [--forward-to URL [--events kind,kind] [--secret S]] [--control-token T]',
  '                   [--allowed-hosts name,.domain] [--quiet] [--openapi]',
  '       bizmsg-mock emit <event kind> --to URL --secret S [--data JSON]',
  '       bizmsg-mock proxy --target URL [--variant 1|2] [--port N] [--record DIR] [--record-limit MB]',
  '                         [--redaction-key K] [--quiet]',
  '       bizmsg-mock replay DIR [--port N] [--redaction-key K] [--quiet]',
  '       bizmsg-mock --help | --version',
].join('\n');

/** Serve the mock over HTTP (or print its OpenAPI document). */
export interface ServeArgs {
  readonly command: 'serve';
  readonly port: number;
  readonly host: string;
  /** Given on the command line; else the seed file's, else 2. */
  readonly variant: 1 | 2 | undefined;
  readonly seed: number | undefined;
  readonly seedFile: string | undefined;
  readonly forwardTo: string | undefined;
  readonly events: readonly WebhookEventKind[] | undefined;
  readonly secret: string | undefined;
  readonly controlToken: string | undefined;
  /** More names to answer to in `Host`. */
  readonly allowedHosts: readonly string[] | undefined;
  readonly quiet: boolean;
  readonly openapi: boolean;
}

/** Send one signed event straight to a URL, with no server. */
export interface EmitArgs {
  readonly command: 'emit';
  readonly event: WebhookEventKind;
  readonly to: string;
  readonly secret: string;
  readonly data: Record<string, unknown>;
}

/** Pass the API on to the real service, checking it against the contract and maybe recording it. */
export interface ProxyArgs {
  readonly command: 'proxy';
  readonly target: string;
  readonly variant: 1 | 2;
  readonly port: number;
  readonly record: string | undefined;
  /** The most bytes the recording may hold. */
  readonly recordLimit: number | undefined;
  readonly redactionKey: string | undefined;
  readonly quiet: boolean;
}

/** Serve a recording offline. */
export interface ReplayArgs {
  readonly command: 'replay';
  readonly recording: string;
  readonly port: number;
  readonly redactionKey: string | undefined;
  readonly quiet: boolean;
}

/** What `bizmsg-mock` was asked to do. */
export type CliArgs =
  | ServeArgs
  | EmitArgs
  | ProxyArgs
  | ReplayArgs
  | { readonly command: 'help'; readonly about: 'proxy' | 'replay' | undefined }
  | { readonly command: 'version' };

/** What `bizmsg-mock proxy --help` and `bizmsg-mock replay --help` add: each of their flags. */
export const TRAFFIC_HELP = [
  '',
  'bizmsg-mock proxy: passes /api/v1 on to the real service and back unchanged, checks each exchange',
  'against the contract (GET /_bizmsg/drift, each new finding printed once), and records it redacted.',
  "  --target URL         the service's base URL: an absolute http(s) URL ending in /api/v1 (required)",
  '  --variant 1|2        the variant whose contract the traffic is checked against (default 2)',
  '  --port N             the port on 127.0.0.1 (default 4010; 0: any free port)',
  '  --record DIR         write each exchange to DIR as one JSON file, redacted (no key, no secret, no phone number)',
  '  --record-limit MB    the most the recording holds (default 256); past it exchanges are counted, not written',
  '  --redaction-key K    the key phone numbers are redacted under (at least 16 characters; default',
  '                       BIZMSG_REDACTION_KEY, else a random one for this run); a replay needs the same one',
  '  --quiet              no line per request',
  'bizmsg-mock replay DIR: serves a recording offline; a request with no recording gets 501 NO_RECORDING.',
  '  --port N, --redaction-key K, --quiet   as above',
].join('\n');

/** The commands besides serving the mock, each named by the first argument. */
const COMMANDS = ['emit', 'proxy', 'replay'] as const;
type Command = 'serve' | (typeof COMMANDS)[number];

/** A flag or value `bizmsg-mock` does not accept; the message names it and what is accepted. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

/** Each flag that takes a value, with what it accepts in words; the commands it belongs to. */
const VALUES = {
  port: { accepts: 'an integer from 0 to 65535', commands: ['serve', 'proxy', 'replay'] },
  host: { accepts: 'a host name or IP address', commands: ['serve'] },
  variant: { accepts: '1 or 2', commands: ['serve', 'proxy'] },
  seed: { accepts: 'an integer (the random seed; for seed data use --seed-file FILE)', commands: ['serve'] },
  'seed-file': { accepts: 'the path of a JSON file of mock options', commands: ['serve'] },
  'forward-to': { accepts: 'an http(s) URL', commands: ['serve'] },
  events: { accepts: `event kinds separated by commas (${WEBHOOK_EVENT_KINDS.join(', ')})`, commands: ['serve'] },
  secret: { accepts: 'a signing secret', commands: ['serve', 'emit'] },
  'control-token': { accepts: 'at least 16 printable characters without spaces', commands: ['serve'] },
  'allowed-hosts': {
    accepts: 'host names separated by commas (a leading dot takes in subdomains)',
    commands: ['serve'],
  },
  to: { accepts: 'an http(s) URL', commands: ['emit'] },
  data: { accepts: 'a JSON object', commands: ['emit'] },
  target: { accepts: "the service's base URL: an absolute http(s) URL ending in /api/v1", commands: ['proxy'] },
  record: { accepts: 'a folder to record into', commands: ['proxy'] },
  'record-limit': { accepts: 'a whole number of MB from 1 to 1048576', commands: ['proxy'] },
  'redaction-key': { accepts: 'at least 16 characters', commands: ['proxy', 'replay'] },
} as const;
const SWITCHES = {
  quiet: ['serve', 'proxy', 'replay'],
  openapi: ['serve'],
  help: ['serve', 'emit', 'proxy', 'replay'],
  version: ['serve', 'emit', 'proxy', 'replay'],
} as const;
type ValueFlag = keyof typeof VALUES;
type Switch = keyof typeof SWITCHES;

/**
 * Reads the command line, naming the first flag or value that is wrong. The scan is not strict
 * because node's strict errors neither say what a flag accepts nor check values; each token is
 * checked here instead.
 */
export function parseCliArgs(args: readonly string[]): CliArgs {
  const { given, switches, positionals } = scan(args);
  const command: Command = COMMANDS.find((known) => known === positionals[0]) ?? 'serve';
  if (switches.has('help'))
    return { command: 'help', about: command === 'proxy' || command === 'replay' ? command : undefined };
  if (switches.has('version')) return { command: 'version' };
  const extra = positionals.slice(command === 'emit' || command === 'replay' ? 2 : command === 'proxy' ? 1 : 0)[0];
  if (extra !== undefined) throw new CliUsageError(`unexpected argument: ${shown(extra)}`);
  for (const flag of [...Object.keys(given), ...switches] as Array<ValueFlag | Switch>) {
    const allowed: readonly string[] = flag in VALUES ? VALUES[flag as ValueFlag].commands : SWITCHES[flag as Switch];
    if (!allowed.includes(command))
      throw new CliUsageError(
        `--${flag} is not a flag of ${command === 'serve' ? 'the server' : `bizmsg-mock ${command}`}`,
      );
  }
  if (command === 'emit') return emitArgs(positionals[1], given);
  if (command === 'proxy') return proxyArgs(given, switches);
  if (command === 'replay') return replayArgs(positionals[1], given, switches);
  return serveArgs(given, switches);
}

function proxyArgs(given: Partial<Record<ValueFlag, string>>, switches: ReadonlySet<Switch>): ProxyArgs {
  if (given.target === undefined) throw new CliUsageError(`proxy needs --target: ${VALUES.target.accepts}`);
  return {
    command: 'proxy',
    target: check('target', given.target, (text) => {
      const url = readHttpUrl(text);
      return url !== undefined && /\/api\/v1\/?$/.test(new URL(url).pathname) ? url.replace(/\/+$/, '') : undefined;
    }),
    variant: optional('variant', given, (text) => (text === '1' ? 1 : text === '2' ? 2 : undefined)) ?? 2,
    port: check('port', given.port ?? '4010', readPort),
    record: optional('record', given, nonEmpty),
    recordLimit: optional('record-limit', given, (text) =>
      /^\d{1,7}$/.test(text) && Number(text) >= 1 && Number(text) <= 1_048_576 ? Number(text) * 1_048_576 : undefined,
    ),
    redactionKey: optional('redaction-key', given, (text) => (text.length >= 16 ? text : undefined)),
    quiet: switches.has('quiet'),
  };
}

function replayArgs(
  recording: string | undefined,
  given: Partial<Record<ValueFlag, string>>,
  switches: ReadonlySet<Switch>,
): ReplayArgs {
  if (recording === undefined || recording === '')
    throw new CliUsageError('replay needs the folder of a recording: bizmsg-mock replay DIR');
  return {
    command: 'replay',
    recording,
    port: check('port', given.port ?? '4010', readPort),
    redactionKey: optional('redaction-key', given, (text) => (text.length >= 16 ? text : undefined)),
    quiet: switches.has('quiet'),
  };
}

function scan(args: readonly string[]) {
  const { tokens } = parseArgs({
    args: [...args],
    strict: false,
    allowPositionals: true,
    tokens: true,
    options: {
      ...Object.fromEntries(Object.keys(VALUES).map((name) => [name, { type: 'string' as const }])),
      quiet: { type: 'boolean' },
      openapi: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  const given: Partial<Record<ValueFlag, string>> = {};
  const switches = new Set<Switch>();
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    if (Object.hasOwn(VALUES, token.name)) {
      const flag = token.name as ValueFlag;
      if (token.value === undefined) throw new CliUsageError(`${token.rawName} needs a value: ${VALUES[flag].accepts}`);
      given[flag] = token.value;
    } else if (Object.hasOwn(SWITCHES, token.name)) {
      if (token.value !== undefined)
        throw new CliUsageError(`${token.rawName} takes no value, got ${shown(token.value)}`);
      switches.add(token.name as Switch);
    } else {
      throw new CliUsageError(`unknown flag ${cutShort(token.rawName, SHOWN_NAME_CHARS)}`);
    }
  }
  return { given, switches, positionals };
}

function serveArgs(given: Partial<Record<ValueFlag, string>>, switches: ReadonlySet<Switch>): ServeArgs {
  const forwardTo = optional('forward-to', given, readHttpUrl);
  if (forwardTo === undefined && (given.events !== undefined || given.secret !== undefined))
    throw new CliUsageError(`--${given.events !== undefined ? 'events' : 'secret'} needs --forward-to URL`);
  return {
    command: 'serve',
    port: check('port', given.port ?? '4010', readPort),
    host: check('host', given.host ?? '127.0.0.1', (text) => (text === '' ? undefined : text)),
    variant: optional('variant', given, (text) => (text === '1' ? 1 : text === '2' ? 2 : undefined)),
    seed: optional('seed', given, readSeed),
    seedFile: optional('seed-file', given, nonEmpty),
    forwardTo,
    events: optional('events', given, readKinds),
    secret: optional('secret', given, nonEmpty),
    controlToken: optional('control-token', given, (text) => (/^[\x21-\x7e]{16,}$/.test(text) ? text : undefined)),
    allowedHosts: optional('allowed-hosts', given, readHostNames),
    quiet: switches.has('quiet'),
    openapi: switches.has('openapi'),
  };
}

function emitArgs(kind: string | undefined, given: Partial<Record<ValueFlag, string>>): EmitArgs {
  if (kind === undefined) throw new CliUsageError(`emit needs an event kind: ${WEBHOOK_EVENT_KINDS.join(', ')}`);
  const event = (WEBHOOK_EVENT_KINDS as readonly string[]).includes(kind) ? (kind as WebhookEventKind) : undefined;
  if (event === undefined)
    throw new CliUsageError(`not an event kind: ${shown(kind)}; the kinds are ${WEBHOOK_EVENT_KINDS.join(', ')}`);
  for (const flag of ['to', 'secret'] as const)
    if (given[flag] === undefined) throw new CliUsageError(`emit needs --${flag}: ${VALUES[flag].accepts}`);
  return {
    command: 'emit',
    event,
    to: check('to', given.to!, readHttpUrl),
    secret: check('secret', given.secret!, nonEmpty),
    data: optional('data', given, readObject) ?? {},
  };
}

function check<T>(flag: ValueFlag, text: string, read: (text: string) => T | undefined): T {
  const value = read(text);
  if (value === undefined)
    throw new CliUsageError(`--${flag} must be ${VALUES[flag].accepts}, got ${shown(text, flag)}`);
  return value;
}

/** The flags whose values a usage error quotes: none of them is a secret, nor where one is pasted by mistake. */
const QUOTED: ReadonlySet<ValueFlag> = new Set([
  'port',
  'host',
  'variant',
  'seed',
  'seed-file',
  'events',
  'allowed-hosts',
  'record',
  'record-limit',
]);

/**
 * A value as a usage error shows it (the terminal may be shared, its output kept in a CI log): a
 * value of a quoted flag, or a plain word (an event kind, a stray command), as it is; any other
 * (a secret, a token, a URL that may hold one, a value typed in the wrong place) only by its length.
 */
/** How many characters of an unknown flag's name an error shows (a flag may be pasted with a whole value in it). */
const SHOWN_NAME_CHARS = 40;

function shown(text: string, flag?: ValueFlag): string {
  const quoted = flag === undefined ? /^[a-z]{1,20}(\.[a-z]{1,20})?$/.test(text) : QUOTED.has(flag);
  return quoted ? showValue(text) : `${text.length} characters (not shown)`;
}

function optional<T>(
  flag: ValueFlag,
  given: Partial<Record<ValueFlag, string>>,
  read: (text: string) => T | undefined,
): T | undefined {
  const text = given[flag];
  return text === undefined ? undefined : check(flag, text, read);
}

/** Decimal digits only: `Number()` would also take "", "0x10" and "1e3". */
function readPort(text: string): number | undefined {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  return port <= 65535 ? port : undefined;
}

function readSeed(text: string): number | undefined {
  const seed = /^-?\d{1,16}$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(seed) ? seed : undefined;
}

function nonEmpty(text: string): string | undefined {
  return text === '' ? undefined : text;
}

function readHttpUrl(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function readHostNames(text: string): string[] | undefined {
  const names = text.split(',').map((name) => name.trim());
  return names.every(isAllowedHostName) ? names : undefined;
}

function readKinds(text: string): WebhookEventKind[] | undefined {
  const kinds = text.split(',').map((kind) => kind.trim());
  const known = kinds.every((kind) => (WEBHOOK_EVENT_KINDS as readonly string[]).includes(kind));
  return known && kinds.length > 0 ? (kinds as WebhookEventKind[]) : undefined;
}

function readObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
