// The clinic's reminders tested against bizmsg's mock in this process: the account's template
// catalog, the webhooks reaching the clinic's receiver through msw, and patients a test plays.
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { Variant2Client } from 'bizmsg';
import { memoryJournal, readCsv, type BulkJournal } from 'bizmsg/bulk';
import { createMockServer, LIFECYCLE_MS } from 'bizmsg/mock';
import { createStatusTracker, createWebhookHandler } from 'bizmsg/webhooks';
import { outcomesCsv, receiverOptions, REPLIES, sendReminders, templates, type Clinic } from './clinic.js';

const RECEIVER = 'https://clinic.test/webhooks';
const SECRET = 'whsec_clinic';
const PATIENTS = [
  'phone,name,time',
  '+44 7700 900124,Ada Lovelace,Mon 09:30',
  '0044 7700 900125,  Grace Hopper ,Mon 10:00',
  '447700900124,Ada Lovelace,Mon 09:30', // Ada again, spelt otherwise
  'not a number,Alan Turing,Mon 11:15',
  '+44-7700-900-126,,Mon 11:45',
].join('\n');

const mock = createMockServer({ variant: 2, templates });
let clinic: Clinic;
let receive: (request: Request) => Promise<Response>;
const server = setupServer(
  ...mock.handlers,
  http.post(RECEIVER, ({ request }) => receive(request)),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(async () => {
  mock.reset();
  const optedOut = new Set<string>();
  const journals = new Map<string, BulkJournal>();
  clinic = {
    client: new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl }),
    accountId: 1,
    journal: (job) => journals.get(job) ?? journals.set(job, memoryJournal()).get(job)!,
    tracker: createStatusTracker(),
    optOuts: { has: (phone) => optedOut.has(phone), add: async (phone) => void optedOut.add(phone) },
  };
  receive = createWebhookHandler(receiverOptions(clinic, SECRET));
  await clinic.client.webhooks.create({
    url: RECEIVER,
    events: ['message.received', 'message.delivered', 'message.read'],
    secret: SECRET,
  });
});
afterAll(() => {
  server.close();
  mock.close();
});

it('sends one reminder per patient, once however often the job runs', async () => {
  const report = await sendReminders(clinic, PATIENTS, 'monday');

  expect(report).toMatchObject({ total: 5, sent: 3, skipped: 1, failed: 1, suppressed: 0 });
  expect([...mock.store.messages.values()].map((m) => [m.to, m.content.components])).toEqual([
    [
      '+447700900124',
      [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ada Lovelace' },
            { type: 'text', text: 'Mon 09:30' },
          ],
        },
      ],
    ],
    [
      '+447700900125',
      [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Grace Hopper' },
            { type: 'text', text: 'Mon 10:00' },
          ],
        },
      ],
    ],
    [
      '+447700900126',
      [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'there' },
            { type: 'text', text: 'Mon 11:45' },
          ],
        },
      ],
    ],
  ]);
  expect(await sendReminders(clinic, PATIENTS, 'monday')).toMatchObject({ sent: 3, failed: 1 });
  expect(mock.store.messages.size).toBe(3); // the rerun resumed: nothing sent twice
});

it('answers YES, NO and anything else, and holds back from later jobs a patient who sent STOP', async () => {
  const ada = mock.customer('+44 7700 900124');
  const grace = mock.customer('+447700900125');

  expect((await ada.say('yes')).map((m) => m.text)).toEqual([REPLIES.YES]);
  expect((await grace.say('What time was it?')).map((m) => m.text)).toEqual([REPLIES.other]);
  expect((await grace.say('STOP')).map((m) => m.text)).toEqual([REPLIES.STOP]);
  expect(String(await grace.transcript())).toBe(
    [`customer: What time was it?`, `app: ${REPLIES.other}`, 'customer: STOP', `app: ${REPLIES.STOP}`].join('\n'),
  );

  const report = await sendReminders(clinic, PATIENTS, 'tuesday');
  expect(report).toMatchObject({ sent: 2, suppressed: 1 });
  expect((await grace.lastReply())?.text).toBe(REPLIES.STOP); // no reminder after her STOP
});

it("gives each patient's outcome as CSV, with the statuses the webhooks brought", async () => {
  await sendReminders(clinic, PATIENTS, 'monday');
  await mock.clock.advance(LIFECYCLE_MS.delivered); // each delivery's webhook reached the tracker

  const rows = [];
  for await (const { row } of readCsv(await outcomesCsv(clinic, 'monday')))
    rows.push([row.key, row.outcome, row.messageId, row['error.code'], row.deliveredAt]);
  const delivered = (id: string) => mock.store.messages.get(id)?.delivered_at; // the mock's virtual time
  expect(rows).toEqual([
    ["'+447700900124", 'delivered', 'msg_1', '', delivered('msg_1')], // a leading + is quoted for spreadsheets
    ["'+447700900125", 'delivered', 'msg_2', '', delivered('msg_2')],
    ["'+447700900124", 'skipped', '', '', ''], // Ada's second row
    ['not a number', 'failed', '', 'INVALID_PHONE', ''],
    ["'+447700900126", 'delivered', 'msg_3', '', delivered('msg_3')],
  ]);
});
