// One attempt on the wire: a request out, its response back, its body read on demand.

/** An attempt's answer: the response as ky sees it (headers, status), and its body as text. */
export interface Answer {
  readonly response: Response;
  /** Reads the body; rejects as fetch's `text()` does when the connection fails midway. */
  text(): Promise<string>;
}

/**
 * Sends one attempt and resolves once its status and headers are in, as fetch does; rejects as
 * fetch does (the signal's reason on an abort, else a TypeError whose cause says why). `body` is
 * the request's JSON text, the same as the body of `input`, for exchanges that send it themselves.
 */
export type Exchange = (input: Request, init: RequestInit | undefined, body?: string) => Promise<Answer>;

/** The exchange of a fetch function. */
export function fetchExchange(fetch: typeof globalThis.fetch): Exchange {
  return async (input, init) => {
    const response = await fetch(input, init);
    return { response, text: () => response.text() };
  };
}
