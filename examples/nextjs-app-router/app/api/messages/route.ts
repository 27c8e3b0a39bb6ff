// app/api/messages/route.ts: POST { to, body } sends a text message. Route handlers run on the
// server, so the API key stays there; never use the client in a client component.
import { ApiError, ValidationError, Variant2Client } from 'bizmsg';

let client: Variant2Client | undefined;

export async function POST(request: Request): Promise<Response> {
  // Created on the first request, not at import: `next build` imports route modules without
  // your runtime environment, and a client without BIZMSG_API_KEY throws.
  client ??= new Variant2Client(); // BIZMSG_API_KEY and BIZMSG_BASE_URL from the environment
  const { to, body } = (await request.json()) as { to: string; body: string };
  try {
    const message = await client.messages.sendText({ to, body, messaging_account_id: 1 });
    return Response.json({ id: message.id, status: message.status }, { status: 201 });
  } catch (error) {
    if (error instanceof ValidationError) return Response.json({ error: error.details }, { status: 422 });
    if (error instanceof ApiError) return Response.json({ error: error.code }, { status: 502 });
    throw error;
  }
}
