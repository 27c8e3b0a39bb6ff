// `bizmsg bulk report`: one line per recipient of a job, from its journal, advanced by the statuses
// an app's webhook receiver kept in a fileStatusStore; CSV a spreadsheet opens, or JSON lines.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileStatusStore } from '../../webhooks/index.js';
import { BulkJournalMismatchError } from '../errors.js';
import { SEAL_FILE } from '../file/seal.js';
import { fileJournal } from '../file-journal.js';
import { bulkOutcomes } from '../outcomes.js';
import { OUTCOME_COLUMNS, toCsv } from '../csv/to-csv.js';
import type { ReportCommand } from './args.js';
import { say } from './output.js';

/**
 * A mistake in the folders or the job named: one line on stderr and exit code 2, without the usage
 * (the command line was read right).
 */
class ReportRefusal extends Error {}

/** Prints the job's outcomes on stdout; resolves with the exit code. */
export async function runReport(command: ReportCommand): Promise<number> {
  try {
    return await report(command);
  } catch (error) {
    if (!(error instanceof ReportRefusal)) throw error;
    say(process.stderr, `bizmsg: ${error.message}`);
    return 2;
  }
}

async function report(command: ReportCommand): Promise<number> {
  checkFolders(command);
  const journal = fileJournal(command.journal);
  const id = command.id ?? (await journal.job?.())?.id;
  if (id === undefined) throw new ReportRefusal(`the journal ${command.journal} holds no job. Nothing was read.`);
  const statuses = command.statuses === undefined ? undefined : fileStatusStore(command.statuses);
  const out = stdout();
  try {
    const rows = bulkOutcomes(journal, { id, ...(statuses === undefined ? {} : { tracker: statuses }) });
    if (command.format === 'json') {
      for await (const row of rows) if (!out.write(JSON.stringify(row))) break;
    } else out.csv(await toCsv(rows, { columns: OUTCOME_COLUMNS }));
    await out.flushed();
    return 0;
  } catch (error) {
    if (error instanceof BulkJournalMismatchError)
      throw new ReportRefusal(
        `--id ${error.expected}: the journal ${command.journal} holds bulk job ${JSON.stringify(error.found)}, not ${JSON.stringify(error.expected)} (without --id, the report is of the job the journal holds). Nothing was read.`,
      );
    throw error;
  } finally {
    await statuses?.close();
  }
}

/**
 * The folders must be what they are said to be: opening a folder makes it a journal or a status
 * store (created if missing), which a report, that only reads, must not do to a folder given by mistake.
 */
function checkFolders({ journal, statuses }: ReportCommand): void {
  for (const [flag, folder] of [
    ['--journal', journal],
    ['--statuses', statuses],
  ] as const)
    if (folder !== undefined && !existsSync(folder))
      throw new ReportRefusal(`${flag}: there is no folder ${folder}. Nothing was read.`);
  if (!existsSync(join(journal, SEAL_FILE)))
    throw new ReportRefusal(
      `--journal ${journal} is not the journal of a bulk job (the folder bizmsg bulk names at the end of its report). Nothing was read.`,
    );
  if (statuses !== undefined && (!existsSync(join(statuses, 'CURRENT')) || existsSync(join(statuses, SEAL_FILE))))
    throw new ReportRefusal(
      `--statuses ${statuses} is not the folder of a fileStatusStore (the one the app's webhook receiver keeps its statuses in). Nothing was read.`,
    );
}

/**
 * Where the report goes: stdout as it is for a file or a pipe (the CSV's CR LF line breaks kept);
 * made inert for a terminal (a cell may hold an escape sequence). A reader that stops reading
 * (`| head`) ends the report quietly, as it would any other command; another error of stdout (a
 * full disk) is thrown by the next write or `flushed`, said by main as one line.
 */
function stdout() {
  let failed: NodeJS.ErrnoException | undefined;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => (failed ??= error));
  /** False once the reader has gone. */
  const open = () => {
    if (failed !== undefined && failed.code !== 'EPIPE') throw failed;
    return failed === undefined;
  };
  return {
    /** Writes a line; false once the reader has gone. */
    write(line: string): boolean {
      if (!open()) return false;
      if (process.stdout.isTTY) say(process.stdout, line);
      else process.stdout.write(`${line}\n`);
      return true;
    },
    csv(text: string): void {
      if (!open()) return;
      if (process.stdout.isTTY) say(process.stdout, text.replaceAll('\r\n', '\n').replace(/\n$/, ''));
      else process.stdout.write(text);
    },
    /** Resolves once what was written has left (or the reader has gone). */
    async flushed(): Promise<void> {
      if (!open()) return;
      await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
      open();
    },
  };
}
