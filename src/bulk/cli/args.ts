// The words of `bizmsg bulk`: its flags, checked into what the command needs.
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

/** A mistake in the command line: printed with the usage, exit code 2. */
export class CliUsageError extends Error {}

/** How to call the command. */
export const USAGE = `Usage: bizmsg bulk --csv FILE --template NAME --language L [--variant 1|2] [--account N]
                   [--templates CATALOG.json] [--journal DIR] [--id JOB] [--concurrency N]

Sends the template to every row of the CSV at most once: a column \`phone\`, the others the
template's parameters by name (their names from the catalog of --templates). The journal
(default FILE.journal) records each send, so running the same command again resumes the job.
BIZMSG_API_KEY and BIZMSG_BASE_URL give the key and the service. Exit 0 when nothing failed.`;

/** What `bizmsg bulk` was asked to do. */
export interface BulkCommand {
  readonly csv: string;
  readonly template: string;
  readonly language: string;
  readonly variant: 1 | 2;
  /** Variant 2's `messaging_account_id`. */
  readonly account: number;
  readonly templates: string | undefined;
  readonly journal: string;
  readonly id: string;
  readonly concurrency: number;
}

/** Reads the command line (after `node bizmsg`): `help`, or the bulk command. */
export function parseCommand(argv: readonly string[]): BulkCommand | 'help' {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return 'help';
  if (command !== 'bulk') throw new CliUsageError(`unknown command ${JSON.stringify(command)}`);
  if (rest.includes('--help') || rest.includes('-h')) return 'help';
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: Object.fromEntries(
        ['csv', 'template', 'language', 'variant', 'account', 'templates', 'journal', 'id', 'concurrency'].map(
          (name) => [name, { type: 'string' as const }],
        ),
      ),
      strict: true,
    }));
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  const required = (name: 'csv' | 'template' | 'language') => {
    const value = values[name];
    if (value === undefined || value === '') throw new CliUsageError(`--${name} is required`);
    return value;
  };
  const csv = required('csv');
  const template = required('template');
  const language = required('language');
  const variant = whole(values.variant, 'variant', 1);
  if (variant !== 1 && variant !== 2) throw new CliUsageError('--variant must be 1 or 2');
  return {
    csv,
    template,
    language,
    variant,
    account: whole(values.account, 'account', 1),
    templates: values.templates,
    journal: values.journal ?? `${csv}.journal`,
    id: values.id ?? `${basename(csv)}:${template}:${language}`,
    concurrency: whole(values.concurrency, 'concurrency', 8),
  };
}

function whole(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new CliUsageError(`--${name} must be a positive whole number`);
  return number;
}
