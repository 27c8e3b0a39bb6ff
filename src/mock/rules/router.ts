// Matching a request's method and path to a route of the endpoint table.
import type { Endpoint } from '../../contract/endpoints.js';
import type { ListMeta } from '../../schemas/common.js';
import type { MockPlan } from '../options.js';
import { compilePath } from '../wire/path-pattern.js';
import type { MockRequest } from '../wire/request.js';
import type { MockKey } from '../state/store.js';

/** What a route handler gets. */
export interface RouteInput {
  request: MockRequest;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The key that authenticated the request. */
  key: MockKey;
  /** That key's plan. */
  plan: MockPlan;
}

/** A route handler's answer: the payload and a list's `meta` (the endpoint gives the status, the variant the envelope). */
export interface RouteResult {
  data: unknown;
  meta?: ListMeta;
}

/** How the mock serves one endpoint of the contract. */
export interface Route {
  /** Method, path, scope and success status. */
  endpoint: Endpoint;
  /** Checks everything before its first write to the store, so that a request it rejects changes nothing. */
  handle: (input: RouteInput) => RouteResult | Promise<RouteResult>;
}

interface CompiledRoute extends Route {
  pattern: RegExp;
  names: readonly string[];
}

/** Matches requests to routes; a path that exists with other methods is told apart from a missing one. */
export class Router {
  /** The routes by the first segment of their path: a request is tried only against those that could match. */
  readonly #bySegment = new Map<string, CompiledRoute[]>();

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      const segment = firstSegment(route.endpoint.path);
      const group = this.#bySegment.get(segment) ?? [];
      group.push({ ...route, ...compilePath(route.endpoint.path) });
      this.#bySegment.set(segment, group);
    }
  }

  /** The route for `method` and `path`; if only the method is wrong, the methods the path has; else undefined. */
  match(
    method: string,
    path: string,
  ): { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined {
    const allowed: string[] = [];
    for (const route of this.#bySegment.get(firstSegment(path)) ?? []) {
      const found = route.pattern.exec(path);
      if (found === null) continue;
      if (route.endpoint.method !== method) {
        allowed.push(route.endpoint.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = safeDecode(found[i + 1]!);
      });
      return { route, params };
    }
    return allowed.length > 0 ? { allowed } : undefined;
  }
}

/** `contacts` of `/contacts/{id}` (every route path starts with a literal segment). */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

/** A path segment decoded; a malformed escape is kept as is (it then matches no resource). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
