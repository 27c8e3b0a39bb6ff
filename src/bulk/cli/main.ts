#!/usr/bin/env node
// The bizmsg bin: `bizmsg bulk` sends a template to each row of a CSV, at most once, resumable.
import { Variant1Client, Variant2Client } from '../../index.js';
import { fileJournal } from '../file-journal.js';
import { sendBulk } from '../send-bulk.js';
import type { BulkClient, BulkMessage, BulkResult } from '../types.js';
import { CliUsageError, parseCommand, USAGE, type BulkCommand } from './args.js';
import { csvRows, surveyCsv, type CsvRow } from './csv.js';
import { progressBar } from './progress.js';
import { LISTED, reportText } from './report-text.js';
import { loadTemplate, type RowTemplate } from './template.js';

async function main(): Promise<void> {
  const command = parseCommand(process.argv.slice(2));
  if (command === 'help') console.log(USAGE);
  else process.exitCode = await bulk(command);
}

/** Checks the CSV against the template, then sends; resolves with the exit code. */
async function bulk(command: BulkCommand): Promise<number> {
  const template = await loadTemplate(command.templates, command.template, command.language);
  const { header, rows } = await surveyCsv(command.csv);
  checkHeader(header, template, command);
  const client = command.variant === 2 ? new Variant2Client() : new Variant1Client();
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const run = sendBulk<CsvRow, BulkClient>(client, {
    id: command.id,
    recipients: csvRows(command.csv),
    journal: fileJournal(command.journal),
    concurrency: command.concurrency,
    signal: controller.signal,
    message: (row: CsvRow) => messageOf(row, template, command),
  });
  const failed: BulkResult[] = [];
  const unknown: BulkResult[] = [];
  const bar = progressBar(rows);
  run.on('progress', (progress) => bar.update(progress));
  for await (const result of run.results()) {
    if (result.status === 'failed' && failed.length < LISTED) failed.push(result);
    if (result.status === 'unknown' && unknown.length < LISTED) unknown.push(result);
  }
  const report = await run.then(
    (done) => done,
    (error: unknown) => {
      bar.stop();
      throw error;
    },
  );
  bar.stop();
  console.log(reportText(report, failed, unknown));
  return report.failed === 0 && !report.aborted ? 0 : 1;
}

/** Every parameter of the template is a column, and so is `phone`: else nothing is sent. */
function checkHeader(header: readonly string[], template: RowTemplate, command: BulkCommand): void {
  const repeated = header.filter((column, index) => header.indexOf(column) !== index);
  if (repeated.length > 0) {
    throw new CliUsageError(
      `${command.csv} names a column twice (${[...new Set(repeated)].join(', ')}): each column must have one name. Nothing was sent.`,
    );
  }
  const missing = ['phone', ...template.parameters].filter((column) => !header.includes(column));
  if (missing.length > 0) {
    throw new CliUsageError(
      `${command.csv} has no column ${missing.map((c) => JSON.stringify(c)).join(', ')} (its columns: ${header.join(', ')}); template ${JSON.stringify(template.name)} needs phone, ${template.parameters.join(', ') || 'no parameters'}. Nothing was sent.`,
    );
  }
  const extra = header.filter((column) => column !== 'phone' && !template.parameters.includes(column));
  if (extra.length > 0 && command.templates === undefined) {
    throw new CliUsageError(
      `${command.csv} has columns besides phone (${extra.join(', ')}): give --templates CATALOG.json so that they are matched to the template's parameters by name. Nothing was sent.`,
    );
  }
}

function messageOf(row: CsvRow, template: RowTemplate, command: BulkCommand): BulkMessage {
  const content = template.content(row);
  const to = row.phone ?? '';
  return command.variant === 2
    ? { to, messaging_account_id: command.account, type: 'template', content }
    : { to, ...content };
}

main().catch((error: unknown) => {
  if (error instanceof CliUsageError) {
    console.error(`bizmsg: ${error.message}`);
    if (!error.message.endsWith('Nothing was sent.')) console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  console.error(`bizmsg: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
