// The CSV's header against the template, checked before the first send: a column `phone`, one per
// parameter, each named once, and no column the catalog cannot match to a parameter.
import { printable } from '../../shared/printable.js';
import { CliUsageError, type BulkCommand } from './args.js';
import type { RowTemplate } from './template.js';

/** Throws a CliUsageError saying what is wrong with `header`, and that nothing was sent. */
export function checkHeader(header: readonly string[], template: RowTemplate, command: BulkCommand): void {
  const names = (columns: readonly string[]) => columns.map((column) => printable(column)).join(', ');
  const repeated = [...new Set(header.filter((column, index) => header.indexOf(column) !== index))];
  if (repeated.length > 0) {
    throw new CliUsageError(
      `${command.csv} names a column twice (${names(repeated)}): each column must have one name. Nothing was sent.`,
    );
  }
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
