// The `hooks` client option, typed by bizmsg (not by its HTTP layer's types, so that the transport
// may change without breaking a hook): checked once, run by the transport, and what a hook throws
// becomes a HookError without the API key.
import type { AfterResponseHook, BeforeRequestHook, Hooks as KyHooks, Options } from 'ky';
import { BizMsgError, InvalidArgumentError } from '../../shared/errors.js';
import { HookError } from '../errors/classes.js';
import { causeWithoutSecret, redactText } from '../errors/redact.js';

/** What a hook is told of the call it runs for. */
export interface HookContext {
  /** The call's method: `GET`, `POST`, `PUT` or `DELETE`. */
  readonly method: string;
  /** The call's path below the base URL, as errors show it: `/contacts/42`. */
  readonly path: string;
  /** The attempt, from 1: a retry is attempt 2. */
  readonly attempt: number;
}

/** What a `beforeRetry` hook is told: the attempt that failed, and the wait before the next. */
export interface RetryHookContext extends HookContext {
  /** What the failed attempt would have thrown, had it not been retried. */
  readonly error: BizMsgError;
  /** How long the client waits before the next attempt (ms). */
  readonly delayMs: number;
}

/**
 * Functions the client runs at each step of a call, after its own work: the authentication
 * header is set when `beforeRequest` runs. What a hook throws rejects the call with a `HookError`
 * (nothing is sent when `beforeRequest` throws).
 */
export interface ClientHooks {
  /** Before each attempt is sent; may return the `Request` to send instead. */
  beforeRequest?:
    ReadonlyArray<(request: Request, context: HookContext) => Request | void | Promise<Request | void>> | undefined;
  /**
   * After each attempt's answer came, with an unread copy of it; may return the `Response` the
   * client reads instead.
   */
  afterResponse?:
    | ReadonlyArray<
        (request: Request, response: Response, context: HookContext) => Response | void | Promise<Response | void>
      >
    | undefined;
  /** Before the client waits to retry a failed attempt. */
  beforeRetry?: ReadonlyArray<(context: RetryHookContext) => void | Promise<void>> | undefined;
  /** Before a call rejects; may return the `BizMsgError` to reject with instead. */
  beforeError?:
    | ReadonlyArray<(error: BizMsgError, context: HookContext) => BizMsgError | void | Promise<BizMsgError | void>>
    | undefined;
}

/** The hook stages, in the order a call meets them. */
const HOOK_STAGES = ['beforeRequest', 'afterResponse', 'beforeRetry', 'beforeError'] as const;

type Stage = (typeof HOOK_STAGES)[number];

/** The `hooks` option, checked: an object of the four stages, each an array of functions. */
export function checkHooks(value: unknown): ClientHooks {
  if (value === undefined) return {};
  const problem =
    'The `hooks` option must be an object of beforeRequest, afterResponse, beforeRetry and beforeError arrays of functions';
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidArgumentError(`${problem}.`);
  for (const [stage, list] of Object.entries(value)) {
    if (!(HOOK_STAGES as readonly string[]).includes(stage))
      throw new InvalidArgumentError(`${problem}; got "${stage}".`);
    // A stage given as undefined is a stage left out (exactOptionalPropertyTypes users pass `T | undefined`).
    if (list === undefined) continue;
    if (!Array.isArray(list) || !list.every((hook) => typeof hook === 'function')) {
      throw new InvalidArgumentError(`${problem}; \`${stage}\` is not an array of functions.`);
    }
  }
  return value;
}

/** The client's hooks, run in order; what one throws becomes a `HookError` without the key. */
export class HookRunner {
  readonly #hooks: ClientHooks;
  readonly #apiKey: string;

  constructor(hooks: ClientHooks, apiKey: string) {
    this.#hooks = hooks;
    this.#apiKey = apiKey;
  }

  /** True when the user gave hooks for `stage`. */
  has(stage: Stage): boolean {
    return (this.#hooks[stage]?.length ?? 0) > 0;
  }

  /**
   * The `beforeRequest` and `afterResponse` hooks as ky runs them (each hook on its own unread
   * copy of the response), told the call's context by `contextOf` from ky's options.
   */
  forKy(contextOf: (options: Options) => HookContext): Pick<KyHooks, 'beforeRequest' | 'afterResponse'> {
    const before = this.#hooks.beforeRequest ?? [];
    // One ky hook for them all: ky stops at the first that returns a Request; here each runs, on
    // the request the ones before it returned.
    const beforeRequest: BeforeRequestHook[] =
      before.length === 0
        ? []
        : [
            async (request, options) => {
              const context = contextOf(options);
              let sent = request;
              for (const hook of before) {
                const replaced = await this.#run('beforeRequest', () => hook(sent, context));
                if (replaced instanceof Request) sent = replaced;
              }
              return sent === request ? undefined : sent;
            },
          ];
    const afterResponse = (this.#hooks.afterResponse ?? []).map(
      (hook): AfterResponseHook =>
        (request, options, response) =>
          this.#run('afterResponse', () => hook(request, response, contextOf(options))),
    );
    return { beforeRequest, afterResponse };
  }

  async beforeRetry(context: RetryHookContext): Promise<void> {
    for (const hook of this.#hooks.beforeRetry ?? []) await this.#run('beforeRetry', () => hook(context));
  }

  /** The error to reject with: `error`, or the `BizMsgError` a `beforeError` hook returned instead. */
  async beforeError(error: BizMsgError, context: HookContext): Promise<BizMsgError> {
    for (const hook of this.#hooks.beforeError ?? []) {
      const replaced = await this.#run('beforeError', () => hook(error, context));
      if (BizMsgError.is(replaced)) error = replaced;
      else if (replaced !== undefined)
        throw new HookError('beforeError', 'it returned something other than a BizMsgError', {});
    }
    return error;
  }

  async #run<T>(stage: Stage, hook: () => T | Promise<T>): Promise<T> {
    try {
      return await hook();
    } catch (error) {
      const what = redactText(error instanceof Error ? `${error.name}: ${error.message}` : String(error), this.#apiKey);
      throw new HookError(stage, what, { cause: causeWithoutSecret(error, this.#apiKey) });
    }
  }
}
