// A fresh, unread Response rebuilt from a ServiceResponse, for withResponse(), asResponse() and Page.response.
import type { ServiceResponse } from '../call/call.js';

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
