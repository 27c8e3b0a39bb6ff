// The progress bar of `bizmsg bulk` (cli-progress), on stderr, so that stdout holds only the report.
import { SingleBar } from 'cli-progress';
import type { BulkProgress } from '../types.js';

/** A bar over `total` rows; `update` after each row, `stop` at the end. */
export function progressBar(total: number) {
  const bar = new SingleBar({
    format:
      'sending |{bar}| {value}/{total} rows · sent {sent} · failed {failed} · unknown {unknown} · skipped {skipped}',
    stream: process.stderr,
    hideCursor: true,
  });
  bar.start(total, 0, { sent: 0, failed: 0, unknown: 0, skipped: 0 });
  return {
    update(progress: BulkProgress) {
      const done = progress.sent + progress.failed + progress.unknown + progress.skipped;
      bar.update(done, {
        sent: progress.sent,
        failed: progress.failed,
        unknown: progress.unknown,
        skipped: progress.skipped,
      });
    },
    stop: () => bar.stop(),
  };
}
