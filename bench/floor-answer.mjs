// What the floor servers of figure 7 answer: the body and headers of the mock's GET /account/me
// with the seeded key, as a plain node:http handler.
const body = JSON.stringify({
  data: {
    id: 1,
    name: 'Acme Test Account',
    email: 'owner@acme.test',
    plan: 'enterprise',
    scopes: [
      'messages:send',
      'messages:read',
      'contacts:write',
      'contacts:read',
      'automations:trigger',
      'webhooks:manage',
      'account:read',
    ],
  },
});
const length = String(Buffer.byteLength(body));

/** Answers any request with that body, its date and rate-limit headers (a full window). */
export function floorAnswer(_request, response) {
  const now = Date.now();
  response.writeHead(200, {
    'content-type': 'application/json',
    date: new Date(now).toUTCString(),
    'x-ratelimit-limit': '1000000000',
    'x-ratelimit-remaining': '999999999',
    'x-ratelimit-reset': String(Math.ceil(now / 60_000) * 60),
    'content-length': length,
  });
  response.end(body);
}
