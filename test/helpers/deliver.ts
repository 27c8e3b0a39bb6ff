import { request, type Agent } from 'node:http';

/** What a receiver answered to one delivery, and which connection carried it. */
export interface Delivered {
  status: number;
  body: string;
  /** The answer's Connection header. */
  connection: string | undefined;
  /** True when the agent sent this delivery on a connection an earlier one used. */
  reused: boolean;
}

/** How a delivery's body is sent: whole with a Content-Length, or in chunks (Transfer-Encoding: chunked). */
export type DeliveryBody = { whole: string | Uint8Array } | { chunks: Array<string | Uint8Array> };

/**
 * POSTs one delivery over `agent` (so keep-alive connections are reused) and resolves with the
 * answer; rejects if no complete answer arrives within `deadlineMs`, so a hang fails the test
 * instead of stalling it.
 */
export function deliver(
  agent: Agent,
  url: string,
  body: DeliveryBody,
  headers: Record<string, string>,
  deadlineMs = 5000,
): Promise<Delivered> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${deadlineMs} ms`));
    }, deadlineMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode!,
          body: Buffer.concat(chunks).toString('utf8'),
          connection: res.headers.connection,
          reused: req.reusedSocket,
        });
      });
    });
    if ('whole' in body) {
      req.setHeader('content-length', Buffer.byteLength(body.whole));
      req.end(body.whole);
    } else {
      for (const chunk of body.chunks) req.write(chunk);
      req.end();
    }
  });
}
