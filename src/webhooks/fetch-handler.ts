import { checkHandlerOptions, handleDelivery, SIGNATURE_HEADER, tooLarge, type WebhookAnswer, type WebhookHandlerOptions } from './handle.js';

/**
 * A `(request: Request) => Promise<Response>` webhook receiver for Hono, Next.js route
 * handlers, Cloudflare Workers, Bun and Deno: 200 when handled, 401 for a bad or missing
 * signature, 400 for a malformed payload, 413 for an oversized body, 500 when a handler throws.
 */
export function createWebhookHandler(options: WebhookHandlerOptions): (request: Request) => Promise<Response> {
  const maxBodyBytes = checkHandlerOptions(options, 'createWebhookHandler');
  return async (request) => {
    if (request.method !== 'POST') {
      return new Response(null, { status: 405, headers: { allow: 'POST' } });
    }
    if (Number(request.headers.get('content-length') ?? 0) > maxBodyBytes) return respond(tooLarge(maxBodyBytes));
    const body = new Uint8Array(await request.arrayBuffer());
    if (body.byteLength > maxBodyBytes) return respond(tooLarge(maxBodyBytes));
    return respond(await handleDelivery(body, request.headers.get(SIGNATURE_HEADER), options));
  };
}

function respond({ status, body }: WebhookAnswer): Response {
  return Response.json(body, { status });
}
