// connectMock: a MockControl that steers and inspects a mock, over HTTP (a bizmsg-mock in another
// process, on another machine) or in process, with the same methods either way.
import { BizMsgError, InvalidArgumentError } from '../../shared/errors.js';
import { showWithheld } from '../../shared/describe.js';
import { hasMethods } from '../../shared/guards.js';
import { ControlArgumentError } from '../calls/errors.js';
import { customerPhone } from '../calls/phone.js';
import type { MockCustomer } from '../customer/customer.js';
import { callOf, MOCK_OPERATIONS, settled, type MockControl, type MockOperation, runOn } from '../operations.js';
import type { MockService } from '../service.js';
import type { CustomerMessage, Transcript } from '../customer/transcript.js';
import { ControlErrorOutput } from './errors.js';

/** Options of `connectMock`. */
export interface ConnectMockOptions {
  /** The control token, when the mock requires one (bound to a non-loopback address, or started with one). */
  controlToken?: string | undefined;
  /** A fetch implementation (default: the global one, read at call time). */
  fetch?: typeof fetch | undefined;
}

/**
 * A `MockControl` for a running mock: `target` is the URL `bizmsg-mock` printed (its base URL
 * ending in `/api/v1`, or its origin), or a mock in this process (`createMockServer()`,
 * `startMockHttpServer().mock`).
 *
 * @example
 * ```ts
 * const control = connectMock('http://127.0.0.1:4010/api/v1');
 * await control.receiveMessage({ from: '+4915112345678', body: 'Hi' });
 * await control.clock.advance(60_000);
 * const sent = await control.requests({ method: 'POST', path: '/messages/send' });
 * ```
 */
export function connectMock(target: string | MockService, options: ConnectMockOptions = {}): MockControl {
  if (hasMethods(target, ['state', 'requests', 'emit'])) return inProcess(target as MockService);
  const origin = typeof target === 'string' ? httpOrigin(target) : undefined;
  if (origin === undefined)
    throw new InvalidArgumentError(
      `connectMock needs the mock's URL (http://127.0.0.1:4010/api/v1) or a mock in this process, got ${showWithheld(target)}.`,
    );
  if (options.controlToken !== undefined && typeof options.controlToken !== 'string')
    throw new InvalidArgumentError('The `controlToken` option must be a string.');
  return overHttp(new ControlHttp(origin, options));
}

/** The control API of a mock in this process: the handler of each operation, as promises of copies. */
function inProcess(mock: MockService): MockControl {
  return controlOf(async (op, args) => structuredClone(await settled(mock, op, () => runOn(mock, op, args))));
}

/** The control API over HTTP: each operation's route, called with its arguments. */
function overHttp(http: ControlHttp): MockControl {
  return controlOf(async (op, args) => {
    const { path, body, query } = callOf(op, args);
    const answer = await http.call(op.method, `${path}${queryString(query)}`, body);
    return op.resultOf === undefined ? answer : op.resultOf(answer);
  });
}

/** A method of the control API: the call of its operation, its result rebuilt where a copy drops part of it. */
type Method = (...args: unknown[]) => Promise<unknown>;

/**
 * A `MockControl` whose every method is `call` of its operation: `clock.advance` a method of
 * `clock`, `customer.say` one of each `customer(phone)`, the number its first argument.
 */
function controlOf(call: (op: MockOperation, args: readonly unknown[]) => Promise<unknown>): MockControl {
  const control: Record<string, unknown> = {};
  const groups: Record<string, Record<string, Method>> = {};
  for (const op of MOCK_OPERATIONS) {
    const [first, second] = op.name.split('.') as [string, string | undefined];
    const method: Method = async (...args) => {
      const result = await call(op, args);
      return op.revive === undefined ? result : op.revive(result);
    };
    if (second === undefined) control[first] = method;
    else (groups[first] ??= {})[second] = method;
  }
  const { customer: perCustomer = {}, ...objects } = groups;
  control.customer = (phone: string) => customerOf(customerPhone(phone, 'customer'), perCustomer);
  return { ...control, ...objects } as unknown as MockControl;
}

/** A customer over the control API: its operations with its number first; `lastReply` read from the transcript. */
function customerOf(phone: string, methods: Record<string, Method>): MockCustomer {
  const customer = {
    phone,
    say: (text: string, options?: unknown) => methods.say!(phone, text, options) as Promise<CustomerMessage[]>,
    transcript: () => methods.transcript!(phone) as Promise<Transcript>,
    lastReply: async () => (await customer.transcript()).findLast((message) => message.from === 'app'),
  };
  return customer;
}

/** The origin of an http(s) URL, or undefined. */
function httpOrigin(url: string): string | undefined {
  try {
    const { protocol, origin } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? origin : undefined;
  } catch {
    return undefined;
  }
}

/** Calls of the control API of one mock over HTTP. */
class ControlHttp {
  readonly #origin: string;
  readonly #token: string | undefined;
  readonly #fetch: typeof fetch | undefined;

  constructor(origin: string, options: ConnectMockOptions) {
    this.#origin = origin;
    this.#token = options.controlToken;
    this.#fetch = options.fetch;
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.#token !== undefined) headers.authorization = `Bearer ${this.#token}`;
    const url = `${this.#origin}${path}`;
    let response: Response;
    try {
      response = await (this.#fetch ?? globalThis.fetch)(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new BizMsgError(`Could not reach the mock's control API at ${url}: is bizmsg-mock running there?`, {
        cause: error,
      });
    }
    const text = await response.text();
    if (!response.ok) throw refusalOf(method, path, response.status, text);
    const answer = text === '' ? undefined : parsedJson(text);
    if (text !== '' && answer === undefined)
      throw new BizMsgError(
        `${method} ${url} answered ${response.status} with a body that is not JSON: is it a bizmsg-mock?`,
      );
    return answer as T;
  }
}

/** The error of a refused call: an InvalidArgumentError for what a call in process would refuse too. */
function refusalOf(method: string, path: string, status: number, text: string): Error {
  // Not the control API's envelope (a proxy's page, another server on that port): the status says enough.
  const error = ControlErrorOutput.safeParse(parsedJson(text)).data?.error;
  if (error !== undefined && (status === 400 || status === 404 || status === 409))
    return new ControlArgumentError(error.message, status, error.details);
  return new BizMsgError(`${method} ${path} failed with ${status}: ${error?.message ?? `HTTP ${status}`}`);
}

/** The JSON in `text`, or undefined when it is not JSON. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `?` and the query of `values` (those not undefined), or nothing. */
function queryString(values: unknown): string {
  if (values === undefined) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values as Record<string, string | number | undefined>))
    if (value !== undefined) params.set(name, String(value));
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}
