// Where the package's log lines go: the same `logger` option on the clients and the webhook receivers,
// and the clients' levels of it (`logLevel`, `BIZMSG_LOG`).
import { InvalidArgumentError } from './errors.js';
import { checkOneOf, hasMethods } from './guards.js';

/** Where log lines go: `console`, pino, winston or anything with these four methods. */
export interface Logger {
  /** Details of each step (the clients: each attempt as it is sent). */
  debug(message: string): void;
  /** What went well (the clients: each call that succeeded). */
  info(message: string): void;
  /** What went wrong and was handled (a retry, a store that failed). */
  warn(message: string): void;
  /** What failed (a call, a webhook handler). */
  error(message: string, ...context: unknown[]): void;
}

const METHODS = ['debug', 'info', 'warn', 'error'] as const;

/**
 * The `logger` option of `caller`, checked and bound (so that a class-based logger keeps its
 * `this`), `console` when absent; every line it is given is masked first (`maskContacts`): the
 * package's log lines carry no customer's phone number or e-mail address.
 */
export function checkLogger(value: unknown, what: string): Logger {
  if (value !== undefined && !hasMethods(value, METHODS)) {
    throw new InvalidArgumentError(
      `${what} must be an object with debug, info, warn and error methods (console works).`,
    );
  }
  const logger = (value ?? console) as Logger;
  return {
    debug: (message) => logger.debug(maskContacts(message)),
    info: (message) => logger.info(maskContacts(message)),
    warn: (message) => logger.warn(maskContacts(message)),
    error: (message, ...context) => logger.error(maskContacts(message), ...context),
  };
}

/** How much the client logs: each level includes the ones before it. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

const LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

/** A logger that writes only the lines at or above its level; undefined when logging is off. */
export interface LevelledLogger {
  readonly level: LogLevel;
  log(level: Exclude<LogLevel, 'off'>, message: string): void;
  enabled(level: Exclude<LogLevel, 'off'>): boolean;
}

/**
 * The client's logger from the `logLevel` and `logger` options, else the `BIZMSG_LOG`
 * environment variable, else `warn` (as openai-node: retries, failures and how the service differs
 * from what bizmsg expects are seen without a setting); undefined when logging is off, so that
 * nothing is formatted.
 */
export function resolveLogger(
  level: unknown,
  logger: unknown,
  envLevel: string | undefined,
): LevelledLogger | undefined {
  const chosen = checkLevel(
    level ?? (envLevel === undefined || envLevel === '' ? 'warn' : envLevel),
    level === undefined,
  );
  const sink = checkLogger(logger, 'The `logger` option');
  if (chosen === 'off') return undefined;
  const rank = LEVELS.indexOf(chosen);
  return {
    level: chosen,
    enabled: (at) => LEVELS.indexOf(at) <= rank,
    log(at, message) {
      if (LEVELS.indexOf(at) <= rank) sink[at](message);
    },
  };
}

function checkLevel(value: unknown, fromEnv: boolean): LogLevel {
  return checkOneOf(fromEnv ? 'The BIZMSG_LOG environment variable' : 'The `logLevel` option', value, LEVELS);
}

/**
 * A phone number as a log line may hold it: a run of 7 or more digits, with or without `+`, or
 * after a `+` digits in groups split by single spaces (`+49 151 1234 5678`).
 */
const PHONE_NUMBER = /\+\d+(?: \d+)+|\+?\d{7,}/g;
/** An e-mail address: something, `@`, a domain with a dot. */
const EMAIL_ADDRESS = /[^\s@"'<>()[\]{},;:]+@[^\s@"'<>()[\]{},;:]+\.[^\s@"'<>()[\]{},;:.]+/g;

/**
 * `text` with phone numbers and e-mail addresses masked, as bizmsg's log lines show them: the
 * country code's first digits and the last three (`+49•••••678`), the first letter and the domain
 * (`a•••@example.com`). A service's message quoted in a line (`The phone number +4917612340502 is
 * not valid`) reaches the log without the customer; the error object keeps it whole for the caller.
 */
export function maskContacts(text: string): string {
  if (!/\d{7}|\+\d|@/.test(text)) return text;
  return text
    .replace(EMAIL_ADDRESS, (address) => `${address[0]}•••${address.slice(address.indexOf('@'))}`)
    .replace(PHONE_NUMBER, (number) => {
      const digits = number.replace(/\D/g, '');
      if (digits.length < 7) return number;
      return `${number.startsWith('+') ? '+' : ''}${digits.slice(0, 2)}•••••${digits.slice(-3)}`;
    });
}
