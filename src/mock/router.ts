import type { ListMeta } from '../schemas/common.js';
import type { MockPlan, Scope } from './options.js';
import type { MockRequest } from './request.js';
import type { MockKey } from './store.js';

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

/** A route handler's answer: status and payload (the envelope is added later). */
export interface RouteResult {
  status?: number;
  data: unknown;
  meta?: ListMeta;
}

/** One endpoint of a variant. */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below the base URL, with `:name` segments. */
  path: string;
  scope: Scope;
  /** Checks everything before its first write to the store, so that a request it rejects changes nothing. */
  handle: (input: RouteInput) => RouteResult | Promise<RouteResult>;
}

interface CompiledRoute extends Route {
  pattern: RegExp;
  names: string[];
}

/** Matches requests to routes; a path that exists with other methods is told apart from a missing one. */
export class Router {
  readonly #routes: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.#routes = routes.map((route) => {
      const names: string[] = [];
      const source = route.path.replace(/:(\w+)/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      return { ...route, pattern: new RegExp(`^${source}/?$`), names };
    });
  }

  /** The route for `method` and `path`; if only the method is wrong, the methods the path has; else undefined. */
  match(method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined {
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const found = route.pattern.exec(path);
      if (found === null) continue;
      if (route.method !== method) {
        allowed.push(route.method);
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

/** A path segment decoded; a malformed escape is kept as is (it then matches no resource). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
