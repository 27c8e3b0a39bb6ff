// A control call's arguments are checked once, where the call enters: the control API's handler
// over HTTP (which then calls the service's method), the service's method in process.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InboundInput, StateQuery } from '../../../src/mock/calls/schemas.js';
import { connectMock } from '../../../src/mock/control/client.js';
import { answerControl } from '../../../src/mock/control/handler.js';
import { MockService } from '../../../src/mock/service.js';

const call = (mock: MockService, method: string, path: string, body?: unknown) =>
  answerControl(
    mock,
    new Request(`http://127.0.0.1:4010/_bizmsg${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    }),
    { token: undefined },
    () => '{}',
  );

describe('a control call', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is checked once over HTTP, by the handler, and answers as before', async () => {
    const mock = new MockService();
    const inbound = vi.spyOn(InboundInput, 'safeParse');
    const state = vi.spyOn(StateQuery, 'safeParse');
    const answer = await call(mock, 'POST', '/inbound', { from: '+4915112345678', body: 'Hi' });
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toMatchObject({ direction: 'inbound', from: '+4915112345678' });
    expect((await call(mock, 'GET', '/state?deliveries=0')).status).toBe(200);
    expect([inbound.mock.calls.length, state.mock.calls.length]).toEqual([1, 1]);
  });

  it('is checked once in process, by the method', async () => {
    const mock = new MockService();
    const inbound = vi.spyOn(InboundInput, 'safeParse');
    await connectMock(mock).receiveMessage({ from: '+4915112345678', body: 'Hi' });
    expect(inbound.mock.calls.length).toBe(1);
  });

  it('is still refused, naming the field, when the value is wrong', async () => {
    const mock = new MockService();
    const answer = await call(mock, 'POST', '/inbound', { from: '+4915112345678', body: '' });
    expect([answer.status, JSON.parse(answer.body)]).toEqual([
      400,
      {
        error: {
          code: 'INVALID_ARGUMENT',
          message: 'The body: body must not be empty.',
          details: { body: ['must not be empty'] },
        },
      },
    ]);
    await expect(connectMock(mock).receiveMessage({ from: '+4915112345678', body: '' })).rejects.toThrow(
      'receiveMessage: body must not be empty.',
    );
    expect(mock.state().messages).toEqual([]);
  });
});
