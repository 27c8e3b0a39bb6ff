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

/** The fields of a call that `route` gives: its method, its path below the base URL and its payload's schema. */
export function callOf<T>(route: RouteOf<T>): { method: Method; path: string; schema: ZodMiniType<T> } {
  return { method: route.method, path: route.path.slice(1), schema: route.payload };
}

/** The same for a list route: the schema reads an array of its payload. */
export function listCallOf<T>(route: RouteOf<T>): { method: Method; path: string; schema: ZodMiniType<T[]> } {
  return { ...callOf(route), schema: z.array(route.payload) };
}
