// The clients' log: which lines are written (`logLevel`, `BIZMSG_LOG`) and where (`logger`).
import { checkLogger } from '../../shared/logger.js';
import { checkOneOf } from './arguments.js';

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
