// Serves the dashboard on node:http: GET / (the page) and GET /_dashboard/* (its hashed assets), with
// headers that make a reload cost one 304, and a policy that keeps the page to its own origin.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dashboardFiles, type DashboardFile } from './assets.js';

// Scripts, styles and calls from this origin only; no frames around it (its buttons change the mock).
const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Answers `GET` or `HEAD` of the page (`asset` null) or of one of its assets (by file name: the HTTP
 * face, which loads this module at the first such request, says which paths are the dashboard's).
 */
export function serveDashboard(req: IncomingMessage, res: ServerResponse, asset: string | null): void {
  const loaded = dashboardFiles();
  if ('missing' in loaded) {
    plain(res, 503, `The dashboard is not in this build of bizmsg: ${loaded.missing}.\n`);
    return;
  }
  // The page is served at `/` only, never as an asset.
  const file = asset === 'index.html' ? undefined : loaded.files.get(asset ?? 'index.html');
  if (file === undefined) {
    plain(res, 404, `No dashboard file ${req.url ?? ''}.\n`);
    return;
  }
  send(req, res, file, asset === null);
}

function send(req: IncomingMessage, res: ServerResponse, file: DashboardFile, page: boolean): void {
  const headers: Record<string, string> = {
    // The page is checked on each load (a 304 when unchanged); the assets it names never change under their name.
    'cache-control': page ? 'no-cache' : 'public, max-age=31536000, immutable',
    etag: file.etag,
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
    ...(page ? { 'content-security-policy': POLICY, 'referrer-policy': 'no-referrer' } : {}),
  };
  if (req.headers['if-none-match'] === file.etag) {
    res.writeHead(304, headers).end();
    return;
  }
  const zipped = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') ? file.gzip : undefined;
  const body = zipped ?? file.body;
  res.writeHead(200, {
    ...headers,
    'content-type': file.type,
    'content-length': String(body.byteLength),
    ...(zipped === undefined ? {} : { 'content-encoding': 'gzip' }),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(text);
}
