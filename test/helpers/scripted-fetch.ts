/** One request as the fake fetch saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string;
  at: number;
  signal: AbortSignal;
}

/** What a scripted step answers: a response, or an error to throw (a network failure). */
export type Step = Response | Error | ((request: SeenRequest) => Response | Error | Promise<Response | Error>);

/**
 * A fetch that answers from a script, in process, so that retry and pacing tests run on
 * fake timers with exact timings. The last step repeats once the script is used up.
 */
export function scriptedFetch(...steps: Step[]) {
  const requests: SeenRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    const seen: SeenRequest = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: await request.text(),
      at: Date.now(),
      signal: request.signal,
    };
    requests.push(seen);
    const step = steps[Math.min(requests.length - 1, steps.length - 1)]!;
    const outcome = typeof step === 'function' ? await step(seen) : step;
    if (outcome instanceof Error) throw outcome;
    return outcome.clone();
  };
  return { fetch: fetch, requests };
}

/** A JSON response with optional headers. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A Variant 1 error envelope. */
export function v1Error(
  status: number,
  code: string,
  message = code,
  details: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return json(status, { success: false, error: { code, message, details } }, headers);
}

/** A Variant 2 error envelope. */
export function v2Error(
  status: number,
  code: string,
  message = code,
  details: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return json(status, { error: { code, message, details } }, headers);
}

/** A fetch failure the way undici reports it, with the socket error code as the cause. */
export function networkError(code: string): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
}

/** A step that never answers: it only ends when the request is aborted (timeout or signal). */
export function hang(): Step {
  return (request) =>
    new Promise<Error>((resolve) => {
      request.signal.addEventListener('abort', () => resolve(request.signal.reason ?? new Error('aborted')), {
        once: true,
      });
    });
}
