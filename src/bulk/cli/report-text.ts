// The report `bizmsg bulk` prints at the end: the counts, then the recipients that failed or may
// have been sent (the first few of each, with why).
import type { BulkReport, BulkResult } from '../types.js';

/** Recipients listed per status; the counts say how many more there were. */
export const LISTED = 20;

/** The report as lines of text. */
export function reportText(report: BulkReport, failed: readonly BulkResult[], unknown: readonly BulkResult[]): string {
  const lines = [
    `bulk job ${JSON.stringify(report.id)}${report.aborted ? ' (stopped before the end: run the same command to go on)' : ''}`,
    ...(['total', 'sent', 'failed', 'unknown', 'skipped'] as const).map(
      (name) => `  ${name.padEnd(8)} ${report[name]}`,
    ),
  ];
  const list = (title: string, results: readonly BulkResult[], count: number) => {
    if (count === 0) return;
    lines.push(title);
    for (const result of results)
      lines.push(`  ${result.key}  ${result.error?.code ?? ''}: ${result.error?.message ?? ''}`);
    if (count > results.length) lines.push(`  … and ${count - results.length} more`);
  };
  list('failed:', failed, report.failed);
  list('unknown (may have been sent, so not sent again):', unknown, report.unknown);
  return lines.join('\n');
}
