// The errors of bizmsg/bulk that are not an argument's: a journal that belongs to another job.
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
