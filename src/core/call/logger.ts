import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../errors/classes.js';

/** How much the client logs: each level includes the ones before it. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Where log lines go: `console`, pino, winston or anything with these four methods. */
export interface Logger {
  /** Each attempt as it is sent (at `logLevel` `debug`). */
  debug(message: string): void;
  /** Each call that succeeded, with its outcome (at `logLevel` `info` or `debug`). */
  info(message: string): void;
  /** Each retry, with the wait before it (at `logLevel` `warn`, `info` or `debug`). */
  warn(message: string): void;
  /** Each call that failed, with its error (at every `logLevel` but `off`). */
  error(message: string): void;
}

const LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

/** A logger that writes only the lines at or above its level; undefined when logging is off. */
export interface LevelledLogger {
  readonly level: LogLevel;
  log(level: Exclude<LogLevel, 'off'>, message: string): void;
  enabled(level: Exclude<LogLevel, 'off'>): boolean;
}

/**
 * The client's logger from the `logLevel` and `logger` options, else the `BIZMSG_LOG`
 * environment variable; undefined when logging is off, so that nothing is formatted.
 */
export function resolveLogger(
  level: unknown,
  logger: unknown,
  envLevel: string | undefined,
): LevelledLogger | undefined {
  const chosen = checkLevel(
    level ?? (envLevel === undefined || envLevel === '' ? 'off' : envLevel),
    level === undefined,
  );
  const sink = checkLogger(logger);
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
  if (typeof value === 'string' && (LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  const where = fromEnv ? 'The BIZMSG_LOG environment variable' : 'The `logLevel` option';
  throw new InvalidArgumentError(`${where} must be one of ${LEVELS.join(', ')}, got ${showValue(value)}.`);
}

function checkLogger(value: unknown): Logger {
  if (value === undefined) return console;
  const methods = ['debug', 'info', 'warn', 'error'] as const;
  if (
    typeof value !== 'object' ||
    value === null ||
    methods.some((m) => typeof (value as Record<string, unknown>)[m] !== 'function')
  ) {
    throw new InvalidArgumentError(
      'The `logger` option must be an object with debug, info, warn and error methods (console works).',
    );
  }
  const logger = value as Logger;
  // Bound once, so that a class-based logger keeps its `this`.
  return {
    debug: (m) => logger.debug(m),
    info: (m) => logger.info(m),
    warn: (m) => logger.warn(m),
    error: (m) => logger.error(m),
  };
}
