// The CSV's header, checked before the first request: against the template for `bizmsg bulk` (a
// column `phone`, one per parameter, each named once, and no column the catalog cannot match to a
// parameter), for `bizmsg contacts import` a column `phone`, each named once.
import { printable } from '../../shared/printable.js';
import { CliUsageError, type BulkCommand } from './args.js';
import type { RowTemplate } from './template.js';

/** Throws a CliUsageError saying what is wrong with `header`, and that nothing was sent. */
export function checkHeader(header: readonly string[], template: RowTemplate, command: BulkCommand): void {
  refuseRepeats(header, command.csv);
  const missing = ['phone', ...template.parameters].filter((column) => !header.includes(column));
  if (missing.length > 0) {
    throw new CliUsageError(
      `${command.csv} has no column ${missing.map((c) => JSON.stringify(c)).join(', ')} (its columns: ${names(header)}); template ${JSON.stringify(template.name)} needs phone, ${template.parameters.join(', ') || 'no parameters'}. Nothing was sent.`,
    );
  }
  const extra = header.filter((column) => column !== 'phone' && !template.parameters.includes(column));
  if (extra.length > 0 && command.templates === undefined) {
    throw new CliUsageError(
      `${command.csv} has columns besides phone (${names(extra)}): give --templates CATALOG.json so that they are matched to the template's parameters by name. Nothing was sent.`,
    );
  }
}

/** Throws a CliUsageError unless `header` (of the CSV `file`) has a column `phone` and names each column once. */
export function checkImportHeader(header: readonly string[], file: string): void {
  refuseRepeats(header, file);
  if (!header.includes('phone')) {
    throw new CliUsageError(
      `${file} has no column "phone" (its columns: ${names(header)}); a contact is found by its number. Nothing was sent.`,
    );
  }
}

function refuseRepeats(header: readonly string[], file: string): void {
  const repeated = [...new Set(header.filter((column, index) => header.indexOf(column) !== index))];
  if (repeated.length > 0) {
    throw new CliUsageError(
      `${file} names a column twice (${names(repeated)}): each column must have one name. Nothing was sent.`,
    );
  }
}

function names(columns: readonly string[]): string {
  return columns.map((column) => printable(column)).join(', ');
}
