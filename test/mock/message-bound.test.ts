import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/index.js';
import { rawApi, useMocks } from '../helpers/mock-api.js';

// The messages a mock keeps are bounded in bytes (64 MiB as the journal counts them: two bytes a
// character): past it the oldest are forgotten, as a mail catcher drops its oldest mail, so that a
// flood of big sends cannot fill a laptop's memory. A plan's message limit still counts them all.

const mock = createMockServer({
  variant: 2,
  baseUrl: 'https://message-bound.bizmsg.test/api/v1',
  plans: { enterprise: { rateLimit: 100_000 } },
});
useMocks(mock);
const api = rawApi(mock);

/** A text of 500,000 characters: one send holds about 1 MB of the bound, so 65 fill it. */
const BIG = 'x'.repeat(500_000);

const send = (body: string) =>
  api('POST', '/messages/send', {
    body: { to: '+4915112345678', messaging_account_id: 1, type: 'text', content: { body } },
  });

describe('the messages a mock keeps', () => {
  it('forget the oldest past 64 MiB, in the store and in their conversation, and keep the newest', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 80; i++) {
      const sent = await send(`${i} ${BIG}`);
      expect(sent.status).toBe(200);
      ids.push(sent.body.data.id as string);
    }
    const kept = [...mock.store.messages.keys()];
    // 80 sends of ~1,000,400 bytes each (as counted) against 67,108,864: the newest 67 stay.
    expect([kept.length, kept[0], kept.at(-1)]).toEqual([67, ids[13], ids[79]]);
    expect(mock.store.messages.get(ids[13]!)!.content).toEqual({ body: `13 ${BIG}` });
    const conversation = mock.store.conversations[0]!;
    expect([conversation.message_ids.length, conversation.message_ids[0]]).toEqual([67, ids[13]]);
    const listed = await api('GET', `/conversations/${conversation.id}`);
    expect(listed.body.data.messages.map((message: { id: string }) => message.id)).toEqual(ids.slice(13));
  });

  it('still count the forgotten ones against the plan, and start again from none after a reset', async () => {
    const limited = createMockServer({
      variant: 2,
      baseUrl: 'https://message-bound-plan.bizmsg.test/api/v1',
      plans: { enterprise: { rateLimit: 100_000, maxMessages: 70 } },
    });
    limited.listen();
    try {
      const post = rawApi(limited);
      const body = { to: '+4915112345678', messaging_account_id: 1, type: 'text', content: { body: BIG } };
      for (let i = 0; i < 70; i++) expect((await post('POST', '/messages/send', { body })).status).toBe(200);
      expect(limited.store.messages.size).toBe(67);
      const refused = await post('POST', '/messages/send', { body });
      expect([refused.status, refused.body.error.code]).toEqual([403, 'PLAN_LIMIT_EXCEEDED']);
      limited.reset();
      expect((await post('POST', '/messages/send', { body })).status).toBe(200);
    } finally {
      limited.close();
    }
  });

  it('a message forgotten while on its way is not moved on, and its fate cannot be set', async () => {
    const first = (await send('first')).body.data.id as string;
    for (let i = 0; i < 70; i++) await send(BIG);
    expect(mock.store.messages.has(first)).toBe(false);
    await mock.clock.advance(60_000);
    expect([first, mock.store.messages.size]).toEqual(['msg_1', 67]);
    expect(() => mock.setMessageStatus(first, { status: 'read' })).toThrow('There is no message "msg_1".');
  });
});
