// BulkRun: what sendBulk returns, a Run of the job with its id.
import { Run } from '../runs/run.js';
import type { ProgressListener, RunWork } from '../runs/work.js';
import type { BulkProgress, BulkReport, BulkResult } from './types.js';

/** A listener of a run's `progress` events. */
export type BulkProgressListener = ProgressListener<BulkProgress>;

/**
 * A bulk send under way: `await` it for the `BulkReport` (it rejects when the journal fails or
 * refuses the job); `on('progress', p => …)` after each recipient; `results()` streams each
 * recipient's `BulkResult` (earlier runs' outcomes included on resume; a reader that falls behind
 * holds the run back rather than piling them up; read after the run, it gives the whole job's,
 * from the journal).
 */
export class BulkRun extends Run<BulkReport, BulkResult, BulkProgress> {
  /** The job's id. */
  readonly id: string;

  /** @internal sendBulk starts the run and hands over its parts. */
  constructor(id: string, done: Promise<BulkReport>, work: RunWork<BulkResult, BulkProgress>) {
    super(done, work);
    this.id = id;
  }
}
