// The words for one call through the pipeline (core/README.md has the whole path): a resource
// method describes a `CallSpec`; the request function checks it into a `PreparedCall`; the
// transport sends it, one attempt at a time, and ends with a `ServiceResponse` or an error whose message
// names the call by its `CallLabel`.
import type { ZodMiniType } from 'zod/mini';

/** An HTTP method the service uses. */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * What the layer above core does to a call's body before it is serialised (the clients write the
 * phone numbers in it in one form); it throws an `InvalidArgumentError` naming `what` ("The body
 * of POST /contacts") for a value it cannot send.
 */
export type BodyEncoder = (body: unknown, what: string) => unknown;

/**
 * The service's `message` of an error answer with `code`, completed with what the layer above core
 * knows of the call (the clients name the template a send carried).
 */
export type MessageCompleter = (code: string, message: string) => string;

/** A call as a resource method describes it: the endpoint, its ids, query and body, and how its answer is read. */
export interface CallSpec<T, R = T> {
  method: Method;
  /** Route below the base URL; each `{id}` is filled, in order, from `ids`. */
  path: string;
  ids?: readonly unknown[];
  /** Query parameters; `undefined` values are left out. */
  query?: object | undefined;
  body?: unknown;
  /** Applied to `body` before it is checked and serialised. */
  encodeBody?: BodyEncoder | undefined;
  /** Completes the message of an error answer to this call. */
  completeMessage?: MessageCompleter | undefined;
  /** Schema of the payload inside the variant's envelope. */
  schema: ZodMiniType<T>;
  // A method rather than a function-typed property: method parameters are bivariant, so that any
  // CallSpec<T, R> passes where only its request is read (`CallSpec<unknown>`).
  /** Turns the parsed payload into the result (e.g. a default for an empty body). */
  map?(value: T): R;
}

/** A call checked and serialised, ready for the wire: what the transport sends. */
export interface PreparedCall {
  method: Method;
  /** Path below the base URL, ids encoded. */
  path: string;
  /** The path with `{id}` where ids stand, for span names. */
  route: string;
  /** The path as errors and logs show it: the API key removed, should an id hold it, and cut short. */
  shownPath: string;
  searchParams: Record<string, string | number | boolean> | undefined;
  /** The JSON body, if any; `stringifyJson` gives its text, serialised once (by the request function). */
  json: unknown;
  stringifyJson: (value: unknown) => string;
  /** Per-call headers, lower-cased, the authentication already on top. */
  headers: Record<string, string> | undefined;
  signal: AbortSignal | undefined;
  timeout: number;
  maxRetries: number;
  completeMessage: MessageCompleter | undefined;
}

/** How messages, log lines and spans name a call. */
export interface CallLabel {
  readonly method: string;
  /** The shown path, below the base URL, without its leading slash. */
  readonly path: string;
  /** The call's `maxRetries`, where a message says what became of its retries. */
  readonly maxRetries?: number;
  /** Completes the message of an error answer to the call (the `CallSpec`'s). */
  readonly completeMessage?: MessageCompleter | undefined;
}

/** The label of a prepared call. */
export function labelOf(call: PreparedCall): CallLabel {
  return {
    method: call.method,
    path: call.shownPath,
    maxRetries: call.maxRetries,
    completeMessage: call.completeMessage,
  };
}

/** A successful response of the service: what the caller parses, and whether the request may have been processed. */
export interface ServiceResponse {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
  url: string;
  mayHaveBeenProcessed: boolean;
}

/** A fresh, unread Response with a ServiceResponse's status, headers, body and URL. */
export function responseOf(received: ServiceResponse): Response {
  const response = new Response(received.text === '' ? null : received.text, {
    status: received.status,
    statusText: received.statusText,
    headers: received.headers,
  });
  // A constructed Response has no URL; the caller may want to know where it came from.
  Object.defineProperty(response, 'url', { value: received.url });
  return response;
}
