// The control API over HTTP: who may call it, the JSON it reads, the route it runs, and the JSON
// error that says what was wrong. A refused call changes nothing.
import { BODY_LIMITS } from '../../contract/limits.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { MockHttpError } from '../wire/http-error.js';
import { compilePath } from '../wire/path-pattern.js';
import type { MockAnswer, MockRequest } from '../wire/request.js';
import { settled } from '../operations.js';
import type { MockService } from '../service.js';
import { ControlArgumentError } from '../calls/errors.js';
import { checkArguments } from '../calls/schemas.js';
import { CONTROL_ERROR_CODES, type RefusedStatus } from './errors.js';
import { CONTROL_PREFIX, CONTROL_ROUTES, type ControlInput, type ControlRoute } from './routes.js';
import type { EventStream } from './stream.js';

/**
 * Who may call the control API, besides what the HTTP face checks of every route (`Host`, and no
 * delivery of a mock: rules/guard/request-guard.ts).
 */
export interface ControlAccess {
  /** The bearer token every call must carry; undefined: none is needed (bound to a loopback address). */
  readonly token: string | undefined;
}

/** An answer of the control API: JSON, or (`GET /_bizmsg/stream`) Server-Sent Events that `stream` writes. */
export interface ControlAnswer extends MockAnswer {
  /** The events to write after the head, until the reader leaves; the body is then empty. */
  readonly stream?: EventStream;
}
/** A control call refused before anything ran: its status says why (501: not served by this kind of server). */
export class Refused extends Error {
  constructor(
    readonly status: RefusedStatus,
    message: string,
    readonly details: Record<string, string[]> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A route table compiled for matching. */
export type CompiledControlRoutes<T> = ReadonlyArray<{
  readonly route: ControlRoute<T>;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}>;

/** Compiles a route table for `answerControlRoutes`. */
export function compileControlRoutes<T>(routes: readonly ControlRoute<T>[]): CompiledControlRoutes<T> {
  return routes.map((route) => ({ route, ...compilePath(route.path) }));
}

const ROUTES = compileControlRoutes(CONTROL_ROUTES);

/** Whether a path is the control API's. */
export function isControlPath(pathname: string): boolean {
  return pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`);
}

/** Answers one call to the control API; `document` gives its OpenAPI document as JSON. */
export function answerControl(
  mock: MockService,
  request: MockRequest,
  access: ControlAccess,
  document: () => string,
): Promise<ControlAnswer> {
  return answerControlRoutes(ROUTES, request, access, document, (route, input) =>
    settled(mock, route, () => route.run(mock, input)),
  );
}

/**
 * Answers one call to a control API of `routes` (the mock's, or a proxy's or replay's): the access
 * rules, the route, its input checked by its schemas, then `run`, and the JSON answer or refusal.
 */
export async function answerControlRoutes<T>(
  routes: CompiledControlRoutes<T>,
  request: MockRequest,
  access: ControlAccess,
  document: () => string,
  run: (route: ControlRoute<T>, input: ControlInput) => Promise<unknown>,
): Promise<ControlAnswer> {
  try {
    checkAccess(request, access);
    const { pathname, searchParams } = new URL(request.url);
    if (/^(GET|HEAD)$/.test(request.method) && pathname === `${CONTROL_PREFIX}/openapi.json`)
      return json(200, document());
    const { route, params } = match(routes, request.method, pathname);
    const body = route.body === undefined ? undefined : await readBody(request);
    const input = {
      // No body reads as {}; a JSON null is a body, and refused as one.
      body:
        route.body === undefined ? undefined : checkArguments(route.body, body === undefined ? {} : body, 'The body'),
      params,
      query: route.query === undefined ? undefined : checkArguments(route.query, queryOf(searchParams), 'The query'),
    };
    const output = await run(route, input);
    if (route.events !== undefined)
      return { status: 200, headers: EVENT_STREAM, body: '', stream: output as EventStream };
    return route.status === 204 ? { status: 204, headers: NO_STORE, body: '' } : json(route.status, output);
  } catch (error) {
    return refusal(error);
  }
}

const NO_STORE = { 'cache-control': 'no-store' };
// `x-accel-buffering: no`: a proxy (nginx) in front of the mock passes each event on at once.
const EVENT_STREAM = { 'content-type': 'text/event-stream', ...NO_STORE, 'x-accel-buffering': 'no' };

function checkAccess(request: MockRequest, access: ControlAccess): void {
  // A page may call only from the mock's own origin (its dashboard); programs send no Origin.
  const origin = request.headers.get('origin');
  if (origin !== null && !sameOrigin(origin, request.headers.get('host')))
    throw new Refused(
      403,
      `Calls from another origin (${origin}) are refused: the control API serves this mock's own dashboard and programs.`,
    );
  if (access.token !== undefined && !sameSecret(bearer(request), access.token)) {
    throw new Refused(
      401,
      'The control API needs the control token: send Authorization: Bearer <token> (bizmsg-mock prints it at start; --control-token sets it).',
      {},
      { 'www-authenticate': 'Bearer realm="bizmsg-mock control"' },
    );
  }
}

function match<T>(
  routes: CompiledControlRoutes<T>,
  method: string,
  pathname: string,
): { route: ControlRoute<T>; params: ControlInput['params'] } {
  const allowed: string[] = [];
  for (const { route, pattern, names } of routes) {
    const found = pattern.exec(pathname);
    if (found === null) continue;
    // HEAD is GET without the body (the server sends none), as HTTP asks of every GET route.
    if (route.method !== (method === 'HEAD' ? 'GET' : method)) {
      allowed.push(...(route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]));
      continue;
    }
    return { route, params: paramsOf(route, names, found) };
  }
  if (allowed.length > 0)
    throw new Refused(
      405,
      `${pathname} takes ${allowed.join(', ')}, not ${method}.`,
      {},
      { allow: allowed.join(', ') },
    );
  throw new Refused(404, `No control route ${method} ${pathname}; GET ${CONTROL_PREFIX}/openapi.json lists them.`);
}

function paramsOf<T>(route: ControlRoute<T>, names: readonly string[], found: RegExpExecArray): ControlInput['params'] {
  const params: { id?: number; textId?: string; key?: string; phone?: string } = {};
  names.forEach((name, i) => {
    const raw = decode(found[i + 1]!);
    if (name === 'key' || name === 'phone') params[name] = raw;
    else if (route.idIsText === true) params.textId = raw;
    else if (ID.test(raw)) params.id = Number(raw);
    else
      throw new Refused(400, `The id in the path must be a whole number, got ${JSON.stringify(raw)}.`, {
        id: ['must be a whole number'],
      });
  });
  return params;
}

/** The JSON body, or undefined when there is none; anything else is refused. */
async function readBody(request: MockRequest): Promise<unknown> {
  let bytes: ArrayBuffer;
  try {
    bytes = await request.arrayBuffer();
  } catch (error) {
    if (error instanceof MockHttpError && error.code === 'PAYLOAD_TOO_LARGE')
      throw new Refused(413, `The body is larger than ${BODY_LIMITS.maxBytes} bytes.`);
    throw new Refused(400, 'The body could not be read to its end.');
  }
  if (bytes.byteLength === 0) return undefined;
  if (bytes.byteLength > BODY_LIMITS.maxBytes)
    throw new Refused(413, `The body is larger than ${BODY_LIMITS.maxBytes} bytes.`);
  // JSON only: a page of another site can send a form or text without asking first, never JSON.
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type))
    throw new Refused(
      415,
      `Send the body as JSON, with Content-Type: application/json (got ${type === '' ? 'none' : type}).`,
    );
  let prototypeKey = false;
  let body: unknown;
  try {
    // A "__proto__" key is an own property to JSON.parse, and a prototype to whatever spreads it later.
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes), (key, value: unknown) => {
      if (key !== '__proto__') return value;
      prototypeKey = true;
      return undefined;
    });
  } catch {
    throw new Refused(400, 'The body is not valid UTF-8 JSON.', { body: ['is not valid JSON'] });
  }
  if (prototypeKey)
    throw new Refused(400, 'The body holds a "__proto__" key, which no control call takes.', {
      body: ['must not hold a "__proto__" key'],
    });
  return body;
}

/** A query as the schemas read it: numbers from their digits, one value per name. */
function queryOf(searchParams: URLSearchParams): Record<string, string | number> {
  const query: Record<string, string | number> = {};
  // Any number in its usual spelling, so that the schema says what is wrong with it ("limit=-1").
  for (const [name, value] of searchParams)
    query[name] = NUMBER.test(value) && name !== 'status' ? Number(value) : value;
  return query;
}

/** An id as the mock writes it: no sign, no leading zero, a safe integer. */
const ID = /^(0|[1-9]\d{0,14})$/;

/** A number as JSON writes it, short enough to stay exact. */
const NUMBER = /^-?(0|[1-9]\d{0,14})(\.\d{1,15})?$/;

function refusal(error: unknown): MockAnswer {
  if (error instanceof Refused) return controlError(error.status, error.message, error.details, error.headers);
  const refused = ControlArgumentError.refused(error);
  if (refused !== undefined) return controlError(refused.status, refused.message, refused.details);
  if (InvalidArgumentError.is(error)) return controlError(400, error.message, {});
  const name = error instanceof Error ? error.name : typeof error;
  return controlError(500, `The mock failed unexpectedly (${name}).`, {});
}

/** A refused control call's answer: `{ error: { code, message, details } }` with the status's code. */
export function controlError(
  status: RefusedStatus,
  message: string,
  details: Record<string, string[]>,
  headers: Record<string, string> = {},
): MockAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json', ...NO_STORE, ...headers },
    body: JSON.stringify({ error: { code: CONTROL_ERROR_CODES[status], message, details } }),
  };
}

function json(status: number, body: unknown): MockAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json', ...NO_STORE },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

function bearer(request: MockRequest): string {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
}

/** Compares two secrets looking at every character, whatever differs first. */
function sameSecret(given: string, expected: string): boolean {
  let difference = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) difference |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i);
  return difference === 0;
}

function sameOrigin(origin: string, host: string | null): boolean {
  try {
    return host !== null && new URL(origin).host === new URL(`http://${host}`).host;
  } catch {
    return false;
  }
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
