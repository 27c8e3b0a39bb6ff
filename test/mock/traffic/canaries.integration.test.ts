// Canaries: a key, secrets under several names, numbers in four spellings under several names and
// in paths, and e-mail addresses under e-mail fields, sent through a recording proxy to a service that echoes them everywhere; none of them is
// found in the recording (file names included) nor in the journals of the proxy and its replay.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockProxy, startMockReplay } from '../../../src/mock/index.js';

const KEY = 'sk_live_CANARYKEY_0123456789abcdef';
const REDACTION_KEY = 'canary-redaction-key-0001';
/** Secrets under several names, and one without a key-like prefix. */
const SECRETS = ['whsec_CANARY_plain', 'whsec_CANARY_signing', 'whsec_CANARY_answer', 'plain-CANARY-client-secret'];
/** Numbers, each a canary: sent and echoed in four spellings (bare digits, +, 00 and spaced, tel:) and as JSON numbers. */
const N = Array.from({ length: 16 }, (_, index) => `491512345${String(index).padStart(4, '0')}`);
/** E-mail addresses, each a canary: sent, and echoed in another case under other e-mail fields. */
const EMAILS = ['ada.canarymail@customer.example', 'owner.canarymail@business.example'];
const spaced = (number: string) =>
  `+${number.slice(0, 2)} ${number.slice(2, 5)} ${number.slice(5, 9)} ${number.slice(9)}`;

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** A "real service" that echoes the key in a header, the numbers under other names and spellings, and secrets. */
async function startLeakyService(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const missing = /^\/api\/v1\/contacts\/[^/?]+$/.exec(req.url!) !== null;
      const last = decodeURIComponent(req.url!.split('/').pop()!);
      res.writeHead(missing ? 404 : 200, {
        'content-type': 'application/json',
        'x-echo-auth': String(req.headers.authorization),
      });
      const sent = chunks.length === 0 ? null : (JSON.parse(Buffer.concat(chunks).toString()) as unknown);
      res.end(
        JSON.stringify(
          missing
            ? { error: { code: 'RESOURCE_NOT_FOUND', message: `Contact ${last} does not exist.`, details: {} } }
            : {
                data: {
                  id: '550e8400-e29b-41d4-a716-446655440000',
                  created_at: '2026-11-26T13:44:34.000Z',
                  echo: sent,
                  recipient: spaced(N[8]!),
                  wa_id: N[9],
                  msisdn: Number(N[10]),
                  contact: { mobile: `+49-151-${N[11]!.slice(5)}`, phone_number: `(+49) 151 ${N[12]!.slice(5)}` },
                  list: [`+${N[13]}`],
                  tel_uri: `tel:+${N[14]}`,
                  note: `Call 00${N[15]} or ${N[0]}`,
                  secret: SECRETS[2],
                  signing_secret: SECRETS[2],
                  owner_email: EMAILS[1],
                  contacts: [{ email: EMAILS[0]!.toUpperCase() }],
                },
              },
        ),
      );
    });
  });
  return listening(server);
}

/** What an app sends: the numbers in paths, a query and bodies under several names, and the secrets. */
function send(base: string) {
  const call = (path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (answer) => [answer.status, await answer.text()] as const);
  return [
    () => call(`/contacts/${N[0]}`),
    () => call(`/contacts/${encodeURIComponent(`+${N[1]}`)}`),
    () => call(`/contacts?search=00${N[2]}&msisdn=${N[3]}`),
    () =>
      call('/messages/send', {
        to: spaced(N[4]!),
        messaging_account_id: 1,
        type: 'text',
        content: { body: 'Your code is 4711' },
      }),
    () =>
      call('/webhooks', {
        url: 'https://app.example/hooks',
        events: ['message.delivered'],
        secret: SECRETS[0],
        signing_secret: SECRETS[1],
        client_secret: SECRETS[3],
      }),
    () =>
      call('/contacts', {
        name: 'Ada',
        email: EMAILS[0],
        phone: `00${N[5]}`,
        custom_fields: { backup_phone: `+49-151-2345-${N[5]!.slice(9)}` },
        metadata: { tel: `tel:+${N[6]}` },
        mobile: Number(N[7]),
        recipients: [N[1], spaced(N[2]!)],
      }),
    // Larger than the journal parses (64 KiB): redacted as text.
    () =>
      call('/webhooks', {
        secret: SECRETS[0],
        signing_secret: SECRETS[1],
        client_secret: SECRETS[3],
        events: [`+${N[3]}`],
        description: 'x'.repeat(70_000),
      }),
  ];
}

/** Every spelling of every canary a leak could take. */
const CANARIES = [
  KEY,
  'CANARYKEY',
  'CANARY',
  'canarymail',
  'CANARYMAIL',
  ...N.flatMap((number) => [number, number.slice(2), spaced(number).slice(1), number.slice(5)]),
];

function found(text: string): string[] {
  return CANARIES.filter((canary) => text.includes(canary));
}

describe('a recording and the journals, against canaries', () => {
  it('hold no key, no secret under any name, no number in any spelling and no e-mail address, in any field, path or file name', async () => {
    const service = await startLeakyService();
    running.push(service);
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-canaries-'));
    const proxy = await startMockProxy({ target: service.baseUrl, record: dir, redactionKey: REDACTION_KEY });
    running.push(proxy);
    const direct = [];
    for (const call of send(proxy.baseUrl)) direct.push(await call());
    await proxy.settled();
    const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
    expect(names).toHaveLength(7);
    const recording = names.map((name) => `${name}\n${readFileSync(join(dir, name), 'utf8')}`).join('\n');
    expect(found(recording)).toEqual([]);
    const journal = await (await fetch(`${proxy.origin}/_bizmsg/requests`)).text();
    expect(found(journal)).toEqual([]);
    // The message text, the times and ids are kept; one number has one placeholder everywhere.
    expect(recording).toContain('Your code is 4711');
    expect(recording).toContain('2026-11-26T13:44:34.000Z');
    expect(recording).toContain('550e8400-e29b-41d4-a716-446655440000');
    const first = JSON.parse(readFileSync(join(dir, names[0]!), 'utf8'));
    const placeholder = /^\/contacts\/(999\d{10})$/.exec(first.request.path)![1]!;
    expect(names[0]).toBe(`000001-get-contacts-${placeholder}.json`);
    expect(first.response.body.error.message).toBe(`Contact ${placeholder} does not exist.`);
    // Its file name, path and error message, and the note of each of the five answers of 200.
    expect(recording.split(placeholder).length - 1).toBe(8);

    // The replay matches the app's requests after the same redaction, and maps its numbers back.
    await service.close();
    const replay = await startMockReplay({ recording: dir, redactionKey: REDACTION_KEY });
    running.push(replay);
    const replayed = [];
    for (const call of send(replay.baseUrl)) replayed.push(await call());
    expect(replayed.map(([status]) => status)).toEqual([404, 404, 200, 200, 200, 200, 200]);
    expect(JSON.parse(replayed[0]![1]).error.message).toBe(`Contact ${N[0]} does not exist.`);
    expect(JSON.parse(replayed[1]![1]).error.message).toBe(`Contact +${N[1]} does not exist.`);
    expect(direct.map(([status]) => status)).toEqual([404, 404, 200, 200, 200, 200, 200]);
    const replayJournal = await (await fetch(`${replay.origin}/_bizmsg/requests`)).text();
    expect(found(replayJournal)).toEqual([]);
  });
});

/** A service that answers in text, in HTML and in forms, echoing what it was sent. */
async function startTextService(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const sent = Buffer.concat(chunks).toString();
      const path = new URL(req.url!, 'http://service').pathname;
      if (path.endsWith('/page')) {
        res.writeHead(500, { 'content-type': 'text/html' });
        res.end(`<html><body><p>Failed for +49 151 2345 ${N[1]!.slice(9)}, write to ${EMAILS[1]}</p></body></html>`);
      } else if (path.includes('/by-email/')) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end(`No contact ${decodeURIComponent(path.split('/').pop()!)}`);
      } else {
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`Contact +${N[0]} unknown; write to ${EMAILS[0]}. You sent: ${sent}`);
      }
    });
  });
  return listening(server);
}

/** Credentials under the names services give them, each a canary. */
const CREDENTIALS = {
  access_token: 'tok-CANARY-1',
  signing_key: 'sig-CANARY-2',
  password: 'pwd-CANARY-3',
  api_key: 'api-CANARY-4',
  apiKey: 'api-CANARY-5',
  private_key: 'prv-CANARY-6',
};

describe('a recording of bodies that are not JSON, and of credentials by other names', () => {
  it('holds no number, no e-mail address and no credential in a text, HTML or form body, a query, a path or a file name', async () => {
    const service = await startTextService();
    running.push(service);
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-text-canaries-'));
    const proxy = await startMockProxy({ target: service.baseUrl, record: dir, redactionKey: REDACTION_KEY });
    running.push(proxy);
    const headers = { authorization: `Bearer ${KEY}` };
    const form = new URLSearchParams({ phone: `+${N[2]}`, email: EMAILS[0]!, note: `call 00${N[3]}`, ...CREDENTIALS });
    const statuses = [
      await fetch(`${proxy.baseUrl}/contacts/import`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      }),
      await fetch(`${proxy.baseUrl}/notes`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/plain' },
        body: `Call ${spaced(N[4]!)} or mail ${EMAILS[1]}`,
      }),
      await fetch(`${proxy.baseUrl}/page`, { headers }),
      await fetch(`${proxy.baseUrl}/settings?${new URLSearchParams(CREDENTIALS).toString()}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ ...CREDENTIALS, nested: { ...CREDENTIALS } }),
      }),
      await fetch(`${proxy.baseUrl}/contacts/by-email/${encodeURIComponent(EMAILS[0]!)}`, { headers }),
    ].map((answer) => answer.status);
    expect(statuses).toEqual([400, 400, 500, 400, 404]);
    await proxy.settled();
    const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
    expect(names).toHaveLength(5);
    const recording = names.map((name) => `${name}\n${readFileSync(join(dir, name), 'utf8')}`).join('\n');
    expect(found(recording)).toEqual([]);
    expect(recording).not.toMatch(/CANARY/i);
    // What is no number, address or credential is kept: the words, the tags, the statuses.
    expect(recording).toContain('unknown; write to redacted-');
    expect(recording).toContain('<html><body><p>Failed for +999');
    expect(recording.match(/"<redacted>"/g)?.length).toBeGreaterThanOrEqual(Object.keys(CREDENTIALS).length * 3);
  });
});

/** `server` on a free loopback port: its base URL, and a close that cuts its connections. */
async function listening(server: Server): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
