// A fresh, unread Response rebuilt from a reply, for withResponse(), asResponse() and Page.response.
import type { Reply } from '../call/call.js';

/** A fresh, unread Response with a reply's status, headers, body and URL. */
export function responseOf(reply: Reply): Response {
  const response = new Response(reply.text === '' ? null : reply.text, {
    status: reply.status,
    statusText: reply.statusText,
    headers: reply.headers,
  });
  // A constructed Response has no URL; the caller may want to know where it came from.
  Object.defineProperty(response, 'url', { value: reply.url });
  return response;
}
