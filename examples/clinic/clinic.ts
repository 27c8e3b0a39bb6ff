// A clinic's appointment reminders: one template reminder per patient at most once, the replies
// YES / NO / STOP answered, patients who sent STOP held back from every later job, and each
// patient's outcome (sent, delivered, read, failed and why) as a CSV for the front desk.
import { defineTemplates, normalizePhone, type Variant2Client } from 'bizmsg';
import { bulkOutcomes, readCsv, sendBulk, toCsv, type BulkJournal, type BulkReport, type CsvSource } from 'bizmsg/bulk';
import type { StatusTracker, WebhookHandlerOptions } from 'bizmsg/webhooks';

/** The account's templates, declared once; the tests hand the mock the same catalog. */
export const templates = defineTemplates({
  appointment_reminder: { languages: ['en'], body: ['name', 'time'] },
});

/** The numbers (E.164) of patients who asked for no more reminders. */
export interface OptOuts {
  has(phone: string): boolean;
  add(phone: string): Promise<void>;
}

/** What the clinic's code works with; `server.ts` builds it on disk, the tests in memory. */
export interface Clinic {
  client: Variant2Client;
  /** The clinic's messaging account. */
  accountId: number;
  /** Each reminder job's journal (one per job): its sends, so that a job run again (after a crash) resumes. */
  journal: (job: string) => BulkJournal;
  /** The statuses the webhooks bring, by message. */
  tracker: StatusTracker;
  optOuts: OptOuts;
}

/** The replies the clinic sends, by what the patient wrote. */
export const REPLIES = {
  YES: 'Thank you, your appointment is confirmed. See you then!',
  NO: 'Thank you for letting us know. We will call you to find a new time.',
  STOP: 'You will get no more reminders from us.',
  other: 'Please reply YES to confirm your appointment, NO to cancel it, or STOP for no more reminders.',
} as const;

/**
 * Sends the job's reminders: one per patient of the CSV (columns `phone`, `name`, `time`, the
 * phone in any spelling), none to a patient who sent STOP, none twice however often it runs.
 */
export async function sendReminders(clinic: Clinic, csv: CsvSource, job: string): Promise<BulkReport> {
  return await sendBulk(clinic.client, {
    id: job,
    recipients: patients(csv),
    journal: clinic.journal(job),
    suppress: (_patient, to) => clinic.optOuts.has(to) && 'replied STOP',
    message: (patient) => ({
      to: patient.phone,
      messaging_account_id: clinic.accountId,
      type: 'template',
      content: templates.appointment_reminder({ language: 'en', name: patient.name, time: patient.time }),
    }),
  });
}

async function* patients(csv: CsvSource) {
  for await (const { row } of readCsv(csv))
    yield { phone: row.phone ?? '', name: row.name?.trim() || 'there', time: row.time?.trim() ?? '' };
}

/** The webhook receiver's options: statuses to the tracker, and each patient's reply answered. */
export function receiverOptions(clinic: Clinic, secret: string): WebhookHandlerOptions {
  return {
    secret,
    tracker: clinic.tracker,
    on: {
      'message.received': async ({ data }) => {
        if (data.from === undefined) return;
        const from = normalizePhone(data.from);
        const word = (data.body ?? '').trim().toUpperCase();
        if (word === 'STOP') await clinic.optOuts.add(from);
        const body = word === 'YES' || word === 'NO' || word === 'STOP' ? REPLIES[word] : REPLIES.other;
        await clinic.client.messages.sendText({ to: from, messaging_account_id: clinic.accountId, body });
      },
    },
  };
}

/** Each patient of the job and what became of the reminder, as CSV a spreadsheet opens safely. */
export function outcomesCsv(clinic: Clinic, job: string): Promise<string> {
  return toCsv(bulkOutcomes(clinic.journal(job), { id: job, tracker: clinic.tracker }));
}
