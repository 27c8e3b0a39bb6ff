// Where the package's log lines go: the same `logger` option on the clients and the webhook receivers.
import { InvalidArgumentError } from './errors.js';
import { hasMethods } from './guards.js';

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
 * `this`); `console` when absent.
 */
export function checkLogger(value: unknown, what: string): Logger {
  if (value === undefined) return console;
  if (!hasMethods(value, METHODS)) {
    throw new InvalidArgumentError(
      `${what} must be an object with debug, info, warn and error methods (console works).`,
    );
  }
  const logger = value as Logger;
  return {
    debug: (message) => logger.debug(message),
    info: (message) => logger.info(message),
    warn: (message) => logger.warn(message),
    error: (message, ...context) => logger.error(message, ...context),
  };
}
