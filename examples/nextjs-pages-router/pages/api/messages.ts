// pages/api/messages.ts: POST { to, body } sends a text message. API routes run on the server,
// so the API key stays there; never create the client in a page's browser code.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, ValidationError, Variant2Client } from 'bizmsg';

/** What Next's NextApiRequest adds that this route uses: the parsed JSON body. */
type ApiRequest = IncomingMessage & { body: { to: string; body: string } };

let client: Variant2Client | undefined;

export default async function handler(req: ApiRequest, res: ServerResponse): Promise<void> {
  // Created on the first request, not at import: `next build` imports API routes without your
  // runtime environment, and a client without BIZMSG_API_KEY throws.
  client ??= new Variant2Client(); // BIZMSG_API_KEY and BIZMSG_BASE_URL from the environment
  try {
    const message = await client.messages.sendText({ ...req.body, messaging_account_id: 1 });
    reply(res, 201, { id: message.id, status: message.status });
  } catch (error) {
    if (error instanceof ValidationError) reply(res, 422, { error: error.details });
    else if (error instanceof ApiError) reply(res, 502, { error: error.code });
    else throw error;
  }
}

// With Next's types this is res.status(status).json(body).
function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
