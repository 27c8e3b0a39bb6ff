#!/usr/bin/env node
// The bizmsg bin: `bizmsg bulk` sends a template to each row of a CSV, at most once, resumable;
// `bizmsg bulk report` lists what became of each row; `bizmsg contacts import` makes the account's
// contacts match a CSV.
// Whatever goes wrong ends here as one inert line on stderr and an exit code, never a stack trace.
import { printable } from '../../shared/printable.js';
import { VERSION } from '../../shared/version.js';
import { CliUsageError, parseCommand, USAGE } from './args.js';
import { say } from './output.js';
import { runImport } from './import.js';
import { runReport } from './report.js';
import { runBulk } from './run.js';

async function main(): Promise<number> {
  const command = parseCommand(process.argv.slice(2));
  if (command === 'help' || command === 'version') {
    say(process.stdout, command === 'help' ? USAGE : VERSION);
    return 0;
  }
  if (command.kind === 'bulk report') return runReport(command);
  return command.kind === 'bulk' ? runBulk(command) : runImport(command);
}

/** Says what went wrong; the exit code: 2 for a mistake in the command or its files, else 1. */
function failed(error: unknown): number {
  say(process.stderr, `bizmsg: ${printable(error instanceof Error ? error.message : String(error))}`);
  if (!(error instanceof CliUsageError)) return 1;
  if (!error.message.endsWith('Nothing was sent.')) say(process.stderr, USAGE);
  return 2;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => (process.exitCode = failed(error)),
);
