// A node:http request as the mock reads it.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { BODY_LIMITS } from '../../contract/limits.js';
import { concat } from '../../shared/bytes.js';
import { payloadTooLarge, type MockHttpError } from '../wire/http-error.js';
import type { MockRequest } from '../wire/request.js';
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
    headers: headersOf(req.headers),
    arrayBuffer: body ?? (() => readBody(req)),
  };
}

/**
 * The headers, read where node:http keeps them. Made apart from the request's other closures,
 * which share one scope: the journal keeps the headers, and must not keep the whole request
 * (socket, parser) with them.
 */
function headersOf(raw: IncomingHttpHeaders): MockRequest['headers'] {
  return {
    get: (name) => {
      const value = raw[name.toLowerCase()];
      return value === undefined ? null : joined(value);
    },
    forEach: (each) => {
      for (const [name, value] of Object.entries(raw)) if (value !== undefined) each(joined(value), name);
    },
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
