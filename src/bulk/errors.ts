// The errors of bizmsg/bulk that are not an argument's: a journal that belongs to another job, serves
// another run, or lost records; a CSV that cannot be read.
import { BizMsgError } from '../shared/errors.js';

/** The journal holds another job: resuming it under this id could send its recipients twice. */
export class BulkJournalMismatchError extends BizMsgError {
  /** The id the run was given. */
  readonly expected: string;
  /** The id the journal belongs to. */
  readonly found: string;

  constructor(expected: string, found: string) {
    super(
      `The journal belongs to bulk job ${JSON.stringify(found)}, not ${JSON.stringify(expected)}: give each job its own journal, or run ${JSON.stringify(found)} again to resume it.`,
    );
    this.expected = expected;
    this.found = found;
  }

  override get name(): string {
    return 'BulkJournalMismatchError';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), expected: this.expected, found: this.found };
  }
}

/** The journal serves another run now (of this process or another): a second run could send its recipients twice. */
export class BulkJournalBusyError extends BizMsgError {
  /** The journal: its folder, or `memoryJournal()`. */
  readonly journal: string;

  constructor(journal: string, options?: ErrorOptions) {
    super(
      `The journal ${journal} is in use by another run (of this process or another): a journal serves one run at a time. Nothing was sent; let that run end (await it), then run the job again to resume it.`,
      options,
    );
    this.journal = journal;
  }

  override get name(): string {
    return 'BulkJournalBusyError';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), journal: this.journal };
  }
}

/** The journal lost or damaged records: recipients it forgot may have been sent, so resuming it could send them twice. */
export class BulkJournalDamagedError extends BizMsgError {
  /** The journal's folder. */
  readonly journal: string;

  constructor(journal: string, damage: string, options?: ErrorOptions) {
    super(
      `The journal ${journal} lost or damaged records (${damage}): recipients it no longer knows may have been sent already, so it is refused and nothing was sent. Restore the folder from a backup; or finish the job as a new one (a new id and journal) with only the recipients the service has no message for.`,
      options,
    );
    this.journal = journal;
  }

  override get name(): string {
    return 'BulkJournalDamagedError';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), journal: this.journal };
  }
}

/** Why a CSV could not be read: the file's encoding, a row too long, a malformed CSV, or the source itself. */
export type CsvProblem = 'encoding' | 'row-too-long' | 'malformed' | 'unreadable';

/** A CSV `readCsv` cannot read: what is wrong, and the line where it is known. Rows read before it were read. */
export class CsvReadError extends BizMsgError {
  /** What is wrong. */
  readonly problem: CsvProblem;
  /** The line (as an editor numbers it) where it was found, when known. */
  readonly line: number | undefined;

  constructor(problem: CsvProblem, message: string, line: number | undefined, options?: ErrorOptions) {
    super(message, options);
    this.problem = problem;
    this.line = line;
  }

  override get name(): string {
    return 'CsvReadError';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), problem: this.problem, line: this.line };
  }
}
