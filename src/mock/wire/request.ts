// What the mock reads of a request, and its answer as plain data.
/**
 * What the mock reads of a request. A fetch `Request` is one; the HTTP server passes a lighter
 * one of its own, which also carries methods fetch refuses to build (TRACE, CONNECT).
 */
export interface MockRequest {
  /** The HTTP method, upper case. */
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  /** The request's headers, as a fetch `Headers` has them. */
  readonly headers: {
    /** The value of a header (case-insensitive), or null. */
    get(name: string): string | null;
    /** Calls `each` with every header, as a fetch `Headers` does: what the request journal shows. */
    forEach?(each: (value: string, name: string) => void): void;
  };
  /** The body's bytes; may reject with the mock's 413 when the body is over the limit. */
  arrayBuffer(): Promise<ArrayBuffer>;
  /** A fetch `Request`'s signal: `MockService.handle` rejects with its reason when it aborts, as fetch does. */
  readonly signal?: AbortSignal | undefined;
}

/** An answer of the mock as plain data: what `handle` turns into a fetch `Response`. */
export interface MockAnswer {
  /** The HTTP status. */
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON text of the body. */
  readonly body: string;
}
