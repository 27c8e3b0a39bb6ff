// A node:http request as the mock reads it.
import type { IncomingMessage } from 'node:http';
import { BODY_LIMITS } from '../../contract/limits.js';
import { concat } from '../../shared/bytes.js';
import { payloadTooLarge, type MockHttpError } from '../rules/http-error.js';
import type { MockRequest } from '../rules/request.js';
import { validationError } from '../rules/validate.js';

/**
 * A Node request as the mock reads it. Lighter than a fetch `Request` (no copy of the headers,
 * no stream), it also carries methods fetch refuses (TRACE, CONNECT), and its body is read
 * only if a route asks for it, never past the limit.
 */
export function nodeMockRequest(req: IncomingMessage, origin: string, body?: () => Promise<ArrayBuffer>): MockRequest {
  return {
    method: req.method ?? 'GET',
    url: `${origin}${pathOf(req.url ?? '/')}`,
    headers: {
      get: (name) => headerValue(req, name),
      forEach: (each) => {
        for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) each(joined(value), name);
      },
    },
    arrayBuffer: body ?? (() => readBody(req)),
  };
}

/**
 * The path and query of a request target. A path is appended to the origin, not resolved
 * against it, so that `//x` stays a path of this server; a full URL gives its path; anything
 * else (`*`, `host:port`) becomes a path that matches nothing.
 */
function pathOf(target: string): string {
  if (target.startsWith('/')) return target;
  try {
    const absolute = new URL(target);
    if (absolute.protocol === 'http:' || absolute.protocol === 'https:')
      return `${absolute.pathname}${absolute.search}`;
  } catch {
    // Not a URL: falls through.
  }
  return `/${target}`;
}

function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  return value === undefined ? null : joined(value);
}

/** A header node:http gives as an array (sent more than once), as fetch's `Headers` would join it. */
function joined(value: string | string[]): string {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The body's bytes; past the limit it stops reading (leaving the rest unread) and rejects with 413. */
function readBody(req: IncomingMessage): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    // The client went away mid-body: no one is left to answer, but the mock must not wait forever.
    const cutOff = () => validationError({ body: ['ended before it was complete'] });
    if (req.destroyed) {
      reject(cutOff());
      return;
    }
    const chunks: Buffer[] = [];
    let length = 0;
    const detach = () => req.off('data', onData).off('end', onEnd).off('close', onClose);
    const stop = (error: MockHttpError) => {
      detach();
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > BODY_LIMITS.maxBytes) stop(payloadTooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => {
      detach();
      resolve(concat(chunks, length).buffer as ArrayBuffer);
    };
    const onClose = () => stop(cutOff());
    req.on('data', onData).on('end', onEnd).on('close', onClose);
  });
}
