// The command line of bizmsg-mock: flags, values, and a usage error naming what is wrong.
import { parseArgs } from 'node:util';

/** The usage line of `bizmsg-mock`. */
export const USAGE = 'Usage: bizmsg-mock [--port 4010] [--host 127.0.0.1] [--variant 1|2] [--seed N] [--openapi]';

/** What `bizmsg-mock` was asked to do. */
export interface CliArgs {
  port: number;
  host: string;
  variant: 1 | 2;
  seed: number;
  openapi: boolean;
  help: boolean;
}

/** A flag or value `bizmsg-mock` does not accept; the message names it and what is accepted. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

type ValueFlag = 'port' | 'host' | 'variant' | 'seed';

/** What each flag that takes a value accepts, in words. */
const ACCEPTS: Record<ValueFlag, string> = {
  port: 'an integer from 0 to 65535',
  host: 'a host name or IP address',
  variant: '1 or 2',
  seed: 'an integer',
};
const DEFAULTS: Record<ValueFlag, string> = { port: '4010', host: '127.0.0.1', variant: '2', seed: '1' };

/**
 * Reads the command line, naming the first flag or value that is wrong. The scan is not strict
 * because node's strict errors neither say what a flag accepts nor check values; each token is
 * checked here instead.
 */
export function parseCliArgs(args: readonly string[]): CliArgs {
  const { tokens } = parseArgs({
    args: [...args],
    strict: false,
    tokens: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      variant: { type: 'string' },
      seed: { type: 'string' },
      openapi: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const given: Record<string, string> = { ...DEFAULTS };
  const switches = { openapi: false, help: false };
  for (const token of tokens) {
    if (token.kind === 'positional') throw new CliUsageError(`unexpected argument ${JSON.stringify(token.value)}`);
    if (token.kind !== 'option') continue;
    if (Object.hasOwn(ACCEPTS, token.name)) {
      if (token.value === undefined)
        throw new CliUsageError(`${token.rawName} needs a value: ${ACCEPTS[token.name as ValueFlag]}`);
      given[token.name] = token.value;
    } else if (Object.hasOwn(switches, token.name)) {
      if (token.value !== undefined)
        throw new CliUsageError(`${token.rawName} takes no value, got ${JSON.stringify(token.value)}`);
      switches[token.name as keyof typeof switches] = true;
    } else {
      throw new CliUsageError(`unknown flag ${token.rawName}`);
    }
  }
  return {
    port: check('port', given.port!, readPort),
    host: check('host', given.host!, (text) => (text === '' ? undefined : text)),
    variant: check('variant', given.variant!, (text) => (text === '1' ? 1 : text === '2' ? 2 : undefined)),
    seed: check('seed', given.seed!, readSeed),
    ...switches,
  };
}

function check<T>(flag: ValueFlag, text: string, read: (text: string) => T | undefined): T {
  const value = read(text);
  if (value === undefined) throw new CliUsageError(`--${flag} must be ${ACCEPTS[flag]}, got ${JSON.stringify(text)}`);
  return value;
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
