// One recipient read into a row: its key, its number and the body to send, or why it cannot be
// sent (checked before anything leaves, so a bad row never stops the job).
import { InvalidArgumentError } from '../shared/errors.js';
import { phoneDigits, writePhone } from '../shared/phone.js';
import type { BulkFailure, BulkMessage } from './types.js';

/** A recipient ready to send, or one that fails before any send. */
export type Row =
  | { readonly key: string; readonly to: string; readonly body: BulkMessage; readonly error?: undefined }
  | { readonly key: string; readonly to: string; readonly body?: undefined; readonly error: BulkFailure };

/** How a caller tells a recipient's message and key. */
export interface RowRules<R> {
  message: (recipient: R) => BulkMessage | Promise<BulkMessage>;
  key?: ((recipient: R) => string) | undefined;
}

/** Reads the recipient at `index` (from 1): its message, its number in E.164 and its key. */
export async function readRow<R>(recipient: R, index: number, rules: RowRules<R>): Promise<Row> {
  let key: string | undefined;
  try {
    key = rules.key === undefined ? undefined : checkKey(rules.key(recipient));
    const body = await rules.message(recipient);
    if (typeof body !== 'object' || body === null)
      throw new InvalidArgumentError('message() must return a message body (an object with `to`).');
    const given = (body as { to?: unknown }).to;
    let to: string;
    try {
      to = writePhone(phoneDigits(given, 'to'), 'e164');
    } catch (error) {
      const shown = typeof given === 'string' ? given : String(given);
      return { key: key ?? shown, to: shown, error: { code: 'INVALID_PHONE', message: (error as Error).message } };
    }
    // Sent in E.164, the spelling every service accepts, whichever spelling the list has.
    return { key: key ?? to, to, body: { ...body, to } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const fallback = `#${index}`;
    return {
      key: key ?? fallback,
      to: '',
      error: { code: 'INVALID_RECIPIENT', message: `recipient ${fallback}: ${message}` },
    };
  }
}

function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key === '') throw new InvalidArgumentError('key() must return a non-empty string.');
  return key;
}
