import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError, Variant2Client, type ClientOptions, type Logger } from '../../../src/index.js';
import { settleStepwise } from '../../helpers/fake-time.js';
import { hang, json, scriptedFetch, v2Error, type Step } from '../../helpers/scripted-fetch.js';

const BASE = 'https://api.bizmsg.test/api/v1';
const KEY = 'sk_live_logs_SECRET_987';
const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
/** A contact as bizmsg expects it: no drift to log. */
const ok = json(200, {
  data: { id: 1, phone: '4915112345678', created_at: '2026-11-22T09:00:00Z', updated_at: '2026-11-22T09:00:00Z' },
});

/** A logger that keeps its lines as `level message`. */
function memoryLogger() {
  const lines: string[] = [];
  const logger: Logger = {
    debug: (m) => void lines.push(`debug ${m}`),
    info: (m) => void lines.push(`info ${m}`),
    warn: (m) => void lines.push(`warn ${m}`),
    error: (m) => void lines.push(`error ${m}`),
  };
  return { logger, lines };
}

function setup(steps: Step[], options: Partial<ClientOptions>) {
  const { fetch } = scriptedFetch(...steps);
  return new Variant2Client({ apiKey: KEY, baseUrl: BASE, fetch, ...options });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T0 });
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe('logging', () => {
  it('writes one info line per request at level info', async () => {
    const { logger, lines } = memoryLogger();
    const client = setup([ok], { logLevel: 'info', logger });
    await settleStepwise(client.contacts.get(1));
    expect(lines).toEqual(['info bizmsg: GET /contacts/1 -> 200 in 0 ms (attempt 1)']);
  });

  it('writes a warn line per retry with the wait, then the outcome', async () => {
    const { logger, lines } = memoryLogger();
    const client = setup([v2Error(503, 'X'), ok], { logLevel: 'info', logger });
    await settleStepwise(client.contacts.get(1));
    expect(lines).toEqual([
      'warn bizmsg: GET /contacts/1 -> 503 in 0 ms (attempt 1); retrying in 250 ms',
      'info bizmsg: GET /contacts/1 -> 200 in 0 ms (attempt 2)',
    ]);
  });

  it('writes an error line for a failure, with the error, and debug lines for each attempt', async () => {
    const { logger, lines } = memoryLogger();
    const client = setup([hang()], { logLevel: 'debug', logger, timeout: 1000, maxRetries: 0 });
    await settleStepwise(client.messages.sendText({ to: '4915112345678', messaging_account_id: 1, body: 'x' }));
    expect(lines).toEqual([
      'debug bizmsg: POST /messages/send attempt 1 sent',
      'error bizmsg: POST /messages/send -> timeout after 1000 ms in 1000 ms (attempt 1); failed: TimeoutError: POST /messages/send timed out after 1000 ms; the request may have been processed, so it was not retried to avoid a duplicate',
    ]);
  });

  it('writes only errors at level error, nothing when off, and warnings and errors by default', async () => {
    const quiet = memoryLogger();
    await settleStepwise(
      setup([ok, v2Error(404, 'RESOURCE_NOT_FOUND', 'gone')], { logLevel: 'off', logger: quiet.logger }).contacts.get(
        1,
      ),
    );
    expect(quiet.lines).toEqual([]);
    const errors = memoryLogger();
    const client = setup([ok, v2Error(404, 'RESOURCE_NOT_FOUND', 'gone')], {
      logLevel: 'error',
      logger: errors.logger,
    });
    await settleStepwise(client.contacts.get(1));
    await settleStepwise(client.contacts.get(2));
    const notFound =
      'error bizmsg: GET /contacts/2 -> 404 in 0 ms (attempt 1); failed: ResourceNotFoundError: GET /contacts/2 failed with 404 RESOURCE_NOT_FOUND: gone';
    expect(errors.lines).toEqual([notFound]);
    const byDefault = memoryLogger();
    const defaulted = setup([v2Error(503, 'X'), ok, v2Error(404, 'RESOURCE_NOT_FOUND', 'gone')], {
      logger: byDefault.logger,
    });
    await settleStepwise(defaulted.contacts.get(1));
    await settleStepwise(defaulted.contacts.get(2));
    expect(byDefault.lines).toEqual([
      'warn bizmsg: GET /contacts/1 -> 503 in 0 ms (attempt 1); retrying in 250 ms',
      notFound,
    ]);
  });

  it('reads BIZMSG_LOG when logLevel is not given, and logs to console by default', async () => {
    vi.stubEnv('BIZMSG_LOG', 'warn');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const client = setup([v2Error(500, 'INTERNAL_ERROR'), ok], {});
    await settleStepwise(client.contacts.get(1));
    expect(warn.mock.calls).toEqual([['bizmsg: GET /contacts/1 -> 500 in 0 ms (attempt 1); retrying in 250 ms']]);
    expect(info).not.toHaveBeenCalled();
  });

  it('never writes the key, even when the server echoes it or an id holds it', async () => {
    const { logger, lines } = memoryLogger();
    const client = setup([v2Error(401, 'AUTHENTICATION_ERROR', `key ${KEY} revoked`)], { logLevel: 'debug', logger });
    await settleStepwise(client.contacts.get(KEY));
    expect(lines.length).toBe(2);
    for (const line of lines) expect(line).not.toContain(KEY);
    expect(lines[1]).toBe(
      'error bizmsg: GET /contacts/[REDACTED] -> 401 in 0 ms (attempt 1); failed: AuthenticationError: GET /contacts/[REDACTED] failed with 401 AUTHENTICATION_ERROR: key [REDACTED] revoked',
    );
  });

  it.each([
    [{ logLevel: 'verbose' }, 'The `logLevel` option must be one of off, error, warn, info, debug, got "verbose".'],
    [
      { logLevel: 'info', logger: { info: () => undefined } },
      'The `logger` option must be an object with debug, info, warn and error methods (console works).',
    ],
  ])('rejects %j', (options, message) => {
    expect(() => new Variant2Client({ apiKey: 'k', baseUrl: BASE, ...(options as ClientOptions) })).toThrow(
      new InvalidArgumentError(message),
    );
  });

  it('rejects a BIZMSG_LOG it does not know, naming the variable', () => {
    vi.stubEnv('BIZMSG_LOG', 'loud');
    expect(() => new Variant2Client({ apiKey: 'k', baseUrl: BASE })).toThrow(
      new InvalidArgumentError(
        'The BIZMSG_LOG environment variable must be one of off, error, warn, info, debug, got "loud".',
      ),
    );
  });
});
