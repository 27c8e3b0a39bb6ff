// The floor: a bare node:http server answering every request with the same JSON body the mock
// sends for GET /account/me. Prints {"url"} as one JSON line once listening.
import { createServer } from 'node:http';

const body = '{"data":{"id":1,"name":"Acme Test Account","email":"owner@acme.test","plan":"enterprise","scopes":["messages:send","messages:read","contacts:write","contacts:read","automations:trigger","webhooks:manage","account:read"]}}';
const server = createServer((_, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/api/v1` })));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
