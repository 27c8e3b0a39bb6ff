// The opt-out list on disk: one number a line, the file `npx bizmsg bulk --suppress` reads too.
import { appendFile, readFile } from 'node:fs/promises';
import { normalizePhone } from 'bizmsg';
import type { OptOuts } from './clinic.js';

/** The list in `path` (created by the first STOP). */
export async function optOutFile(path: string): Promise<OptOuts> {
  const text = await readFile(path, 'utf8').catch(() => '');
  const numbers = new Set(
    text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => normalizePhone(line)),
  );
  return {
    has: (phone) => numbers.has(phone),
    add: async (phone) => {
      if (numbers.has(phone)) return;
      numbers.add(phone);
      await appendFile(path, `${phone}\n`);
    },
  };
}
