// A resource method's endpoint as the contract gives it (contract/routes.ts), in the words of a
// `CallSpec`: the method, path and schema are never restated by a resource.
import * as z from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';
import type { Method } from '../core/wire/call.js';

/** A route of `contract/routes.ts` whose payload reads as `T`. */
interface RouteOf<T> {
  readonly method: Method;
  readonly path: string;
  readonly payload: ZodMiniType<T>;
}

/** What a call takes from a route: its method, its path below the base URL and its payload's schema. */
interface CallOfRoute<T> {
  method: Method;
  path: string;
  schema: ZodMiniType<T>;
}

/** What the payload of a route reads as. */
type PayloadOf<R> = R extends RouteOf<infer T> ? T : never;

/**
 * The fields of a call to operation `id` of a variant's `routes`. The table and the id, not
 * `routes[id]`: a bundler cannot drop a call whose argument reads a property (a getter could run),
 * so a bundle of one client kept the other variant's whole table (figure 1).
 */
export function callOf<R extends Record<string, RouteOf<unknown>>, K extends keyof R>(
  routes: R,
  id: K,
): CallOfRoute<PayloadOf<R[K]>> {
  const route = routes[id] as RouteOf<PayloadOf<R[K]>>;
  return { method: route.method, path: route.path.slice(1), schema: route.payload };
}

/** The same for a list route: the schema reads an array of its payload. */
export function listCallOf<R extends Record<string, RouteOf<unknown>>, K extends keyof R>(
  routes: R,
  id: K,
): CallOfRoute<PayloadOf<R[K]>[]> {
  const call = callOf(routes, id);
  return { ...call, schema: z.array(call.schema) };
}
