// Injected faults: a status, a delay or a network error on matching requests, applied before anything else.
import { endpointsOf } from '../../contract/endpoints.js';
import { ERROR_CODES, generalCodesOfStatus, statusOfCode, type ErrorCode } from '../../contract/error-codes.js';
import type { Variant } from '../../contract/variant.js';
import type { OpenEnum } from '../../schemas/common.js';
import { showValue } from '../../shared/describe.js';
import { MAX_TIMER_MS } from '../../shared/timers.js';
import { badArgument } from '../calls/errors.js';
import { FaultInput } from '../calls/schemas.js';
import { MockHttpError, MockNetworkError } from '../wire/http-error.js';
import { compilePath } from '../wire/path-pattern.js';

/** A fault to inject into matching requests. */
export interface FaultSpec {
  /** Which requests: `"METHOD /path"` (e.g. `"POST /messages/send"`, `:id` or `{id}` allowed) or a RegExp over it; default all. */
  route?: string | RegExp | undefined;
  /** Answer with this status and its spec error code. */
  status?: number | undefined;
  /** Error code of the answer (default: the code the spec gives `status` in this variant; required where it gives none or several). Any string: a code the spec lacks tests a client's handling of new codes. */
  code?: OpenEnum<ErrorCode> | undefined;
  /** Fail the connection instead of answering. */
  networkError?: boolean | undefined;
  /** Wait this many ms (real time, 0 to 2147483647) before going on. */
  delay?: number | undefined;
  /** Apply to the next N matching requests (default 1, or unlimited with `rate`). */
  times?: number | undefined;
  /** Apply to this share (0 to 1) of matching requests, drawn from the seeded PRNG. */
  rate?: number | undefined;
}

/** A fault still in force, as `faults()` shows it. */
export interface InjectedFault {
  /** The route it applies to (`"POST /messages/send"`, a RegExp's source), or null for every route. */
  route: string | null;
  /** The status it answers with, or null when it only delays or cuts the connection. */
  status: number | null;
  /** The error code it answers with, or null when it answers no error. */
  code: string | null;
  /** True when it fails the connection instead of answering. */
  networkError: boolean;
  /** The ms (real time) it waits before going on, or null for none. */
  delay: number | null;
  /** The share (0 to 1) of matching requests it applies to, or null for every one. */
  rate: number | null;
  /** How many more requests it applies to; null: no end. */
  remaining: number | null;
}

interface ActiveFault {
  spec: FaultSpec;
  matches: (target: string) => boolean;
  remaining: number;
}

/** Injected faults, applied before anything else looks at a request. */
export class FaultInjector {
  #faults: ActiveFault[] = [];
  readonly #random: () => number;
  readonly #variant: Variant;

  constructor(random: () => number, variant: Variant) {
    this.#random = random;
    this.#variant = variant;
  }

  /** Adds a fault; one that cannot work (a route that names no endpoint, a code its status never has) is refused, naming the field. */
  inject(spec: FaultSpec): void {
    checkFields(spec);
    if (spec.status === undefined && spec.networkError !== true && spec.delay === undefined)
      throw badArgument(
        'status',
        'or networkError: true or a delay is required',
        'A fault needs a status, networkError: true or a delay.',
      );
    if (spec.rate !== undefined && !(spec.rate >= 0 && spec.rate <= 1))
      throw badArgument('rate', 'must be a share from 0 to 1', 'A fault rate is a share from 0 to 1.');
    if (spec.times !== undefined && !(Number.isInteger(spec.times) && spec.times >= 1))
      throw badArgument(
        'times',
        'must be a whole number from 1',
        `A fault's \`times\` is a whole number from 1, got ${showValue(spec.times)}.`,
      );
    if (spec.delay !== undefined && !(spec.delay >= 0 && spec.delay <= MAX_TIMER_MS))
      throw badArgument(
        'delay',
        `must be a number of milliseconds from 0 to ${MAX_TIMER_MS}`,
        `A fault's \`delay\` must be a number of milliseconds from 0 to ${MAX_TIMER_MS}, got ${showValue(spec.delay)}.`,
      );
    const route = spec.route instanceof RegExp || spec.route === undefined ? spec.route : this.#routeOf(spec.route);
    const code = spec.status === undefined ? undefined : this.#codeOf(spec.status, spec.code);
    const remaining = spec.times ?? (spec.rate === undefined ? 1 : Number.POSITIVE_INFINITY);
    this.#faults.push({ spec: { ...spec, route, code }, matches: matcher(route), remaining });
  }

  /**
   * A route given as text, checked: `METHOD /path` (the method in any case) naming an endpoint of
   * the variant, the path below the base URL, `{id}` or `:id` where an id stands. A fault on a route
   * that names nothing would never fire, and the test relying on it would pass for nothing.
   */
  #routeOf(route: string): string {
    const found = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(route);
    const routes = endpointsOf(this.#variant).map((e) => `${e.method} ${e.path}`);
    const known = `this variant's endpoints are ${routes.join(', ')}`;
    if (found === null)
      throw badArgument(
        'route',
        `must be "METHOD /path", e.g. "${routes[0]}"`,
        `A fault's route must be "METHOD /path" (${known}), got ${showValue(route)}.`,
      );
    const method = found[1]!.toUpperCase();
    const path = found[2]!.replace(/^\/api\/v1(?=\/)/, '');
    const normalized = `${method} ${path.replace(/\{\w+\}|:\w+/g, '{id}').replace(/\/+$/, '')}`;
    if (!routes.includes(normalized))
      throw badArgument(
        'route',
        'names no endpoint of this variant',
        `A fault's route ${showValue(route)} names no endpoint: ${known}.`,
      );
    return `${method} ${path}`;
  }

  /** The faults still in force, in the order they are tried. */
  list(): InjectedFault[] {
    return this.#faults.map(({ spec, remaining }) => ({
      route: spec.route === undefined ? null : String(spec.route),
      status: spec.status ?? null,
      code: spec.code ?? null,
      networkError: spec.networkError === true,
      delay: spec.delay ?? null,
      rate: spec.rate ?? null,
      remaining: Number.isFinite(remaining) ? remaining : null,
    }));
  }

  /** Removes all faults. */
  clear(): void {
    this.#faults = [];
  }

  /** Applies the first fault that matches `METHOD /path` and is drawn, if any; undefined (nothing to wait for) when there are no faults. */
  apply(method: string, path: string): Promise<void> | undefined {
    return this.#faults.length === 0 ? undefined : this.#apply(method, path);
  }

  async #apply(method: string, path: string): Promise<void> {
    const target = `${method} ${path}`;
    // Each matching fault in turn draws its own rate: one that does not fire leaves the next its chance.
    const fault = this.#faults.find(
      (f) => f.matches(target) && (f.spec.rate === undefined || this.#random() < f.spec.rate),
    );
    if (fault === undefined) return;
    fault.remaining -= 1;
    // A used-up fault goes, so that once none is left requests take the fast path again.
    if (fault.remaining === 0) this.#faults = this.#faults.filter((f) => f !== fault);
    const { delay, networkError, status, code } = fault.spec;
    if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
    if (networkError === true) throw new MockNetworkError();
    if (status !== undefined) {
      const headers: Record<string, string> = status === 429 ? { 'retry-after': '1' } : {};
      throw MockHttpError.fault(status, code!, headers);
    }
  }

  #codeOf(status: number, code: string | undefined): string {
    if (!(Number.isInteger(status) && status >= 400 && status <= 599))
      throw badArgument(
        'status',
        'must be an error status from 400 to 599',
        `A fault status is an error status from 400 to 599, got ${showValue(status)}.`,
      );
    if (code !== undefined) {
      // A code of the table answers with its own status; a code the table lacks may come with any.
      if (Object.hasOwn(ERROR_CODES, code) && statusOfCode(code as ErrorCode, this.#variant) !== status)
        throw badArgument(
          'code',
          `comes with status ${statusOfCode(code as ErrorCode, this.#variant)} in this variant`,
          `A fault's code ${code} comes with status ${statusOfCode(code as ErrorCode, this.#variant)} in this variant, not ${status}.`,
        );
      return code;
    }
    // Where the table gives a status two codes of equal standing (403), the first one listed.
    const general = generalCodesOfStatus(status, this.#variant)[0];
    if (general === undefined)
      throw badArgument(
        'code',
        `is required with status ${status}`,
        `The spec gives status ${status} no single error code in this variant: give the fault a code too.`,
      );
    return general;
  }
}

function matcher(route: FaultSpec['route']): (target: string) => boolean {
  if (route === undefined) return () => true;
  if (route instanceof RegExp) return (target) => route.test(target);
  const { pattern } = compilePath(route);
  return (target) => pattern.test(target);
}

/** The fields a fault may have: in process as over HTTP, one that is not among them is refused, not ignored. */
function checkFields(spec: unknown): void {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec))
    throw badArgument(
      'fault',
      'must be an object',
      `A fault is an object such as { status: 500 }, got ${showValue(spec)}.`,
    );
  const fields = Object.keys(FaultInput.shape);
  const unknown = Object.keys(spec).find((key) => !fields.includes(key));
  if (unknown !== undefined)
    throw badArgument(
      unknown,
      'is not a known field',
      `A fault has no field ${JSON.stringify(unknown)}; its fields are ${fields.join(', ')}.`,
    );
}
