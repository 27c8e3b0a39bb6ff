// The user's ky hooks (the `hooks` client option): checked once, and wrapped so that what they throw
// becomes a HookError without the API key.
import type { Hooks } from 'ky';
import { InvalidArgumentError } from '../../shared/errors.js';
import { HookError } from '../errors/classes.js';
import { causeWithoutSecret, redactText } from '../errors/redact.js';

/** The ky hook stages a user may add to, in the order ky runs them. */
const HOOK_STAGES = ['beforeRequest', 'beforeRetry', 'afterResponse', 'beforeError'] as const;

/** The `hooks` option, checked: an object of the four stages, each an array of functions. */
export function checkHooks(value: unknown): Hooks {
  if (value === undefined) return {};
  const problem =
    'The `hooks` option must be an object of beforeRequest, beforeRetry, afterResponse and beforeError arrays of functions';
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidArgumentError(`${problem}.`);
  for (const [stage, list] of Object.entries(value)) {
    if (!(HOOK_STAGES as readonly string[]).includes(stage))
      throw new InvalidArgumentError(`${problem}; got "${stage}".`);
    if (!Array.isArray(list) || !list.every((hook) => typeof hook === 'function')) {
      throw new InvalidArgumentError(`${problem}; \`${stage}\` is not an array of functions.`);
    }
  }
  return value;
}

/** The user's hooks, each wrapped so that what it throws becomes a `HookError` (secrets removed). */
export function wrapHooks(hooks: Hooks, apiKey: string): Hooks {
  const wrapped: Record<string, unknown[]> = {};
  for (const stage of HOOK_STAGES) {
    const list = hooks[stage] as Array<(...args: never[]) => unknown> | undefined;
    if (list === undefined) continue;
    wrapped[stage] = list.map((hook) => async (...args: never[]) => {
      try {
        return await hook(...args);
      } catch (error) {
        const what = redactText(error instanceof Error ? `${error.name}: ${error.message}` : String(error), apiKey);
        throw new HookError(stage, what, { cause: causeWithoutSecret(error, apiKey) });
      }
    });
  }
  return wrapped;
}
