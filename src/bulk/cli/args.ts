// The words of `bizmsg bulk` and `bizmsg contacts import`: their flags, checked into what each
// command needs, and their help.
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { showValue } from '../../shared/describe.js';

/** A mistake in the command line or the files it names: printed (with the usage unless nothing was sent), exit code 2. */
export class CliUsageError extends Error {}

/** Most sends at once (sendBulk's own bound). */
const MAX_CONCURRENCY = 256;

/** What the two commands share: the environment, where their output goes, and their exit codes. */
const ENVIRONMENT = `Environment: BIZMSG_API_KEY (the API key), BIZMSG_BASE_URL (the service, ending in /api/v1),
BIZMSG_LOG (the client's log lines on stderr: error, warn, info or debug).
Output: the report on stdout; on stderr, a progress bar in a terminal, else a progress line every
few seconds, and a line when it waits for the service's rate window.`;

/** How to call the commands: every flag, the environment, the output and the exit codes. */
export const USAGE = `Usage: bizmsg bulk --csv FILE --template NAME --language L [options]
       bizmsg bulk report --journal DIR [--id JOB] [--statuses DIR] [--format csv|json]
       bizmsg contacts import --csv FILE [options]

bizmsg bulk

Sends the template NAME in language L to every row of the CSV FILE, at most once per phone
number, and prints a report. The journal records each send before its request leaves, so running
the same command again resumes the job: nothing that was sent, or may have been, is sent again.
A refused key (401, 403) or a service out of reach stops the job: the rows it did not send go
out when the command runs again; a row refused for itself (an invalid number) stays failed.

  --csv FILE            the recipients: a column \`phone\`, the others the template's parameters by
                        name; a row may take at most 1 MiB. A row whose phone is empty or invalid
                        fails (and is listed by its line); a number seen before is skipped.
  --template NAME       the template to send
  --language L          its language (e.g. en)
  --templates CATALOG   the template catalog, a JSON file as defineTemplates takes it
                        ({ "name": { "languages": [...], "body": [...] } }): it names the template's
                        parameters, each a column of the CSV. Without it, a template without parameters.
  --variant 1|2         the service's API variant (default 1)
  --account N           Variant 2's messaging_account_id (default 1)
  --journal DIR         where the job's sends are recorded (default FILE.journal); one run at a time
  --id JOB              the job's id, kept in the journal (default FILE's name:NAME:L)
  --concurrency N       sends at once, 1 to ${MAX_CONCURRENCY} (default 8)
  --resend-unknown      sends again, once, each row whose earlier send may have been processed
                        (\`unknown\`: a timeout, a 5xx, a run killed mid-send): its recipient may get
                        the message twice
  --suppress FILE       numbers never to send to (opted out): one a line in any spelling, or a CSV
                        with a column \`phone\`; may be given more than once. Their rows are
                        \`suppressed\` (reason "opted out"), recorded, and never sent by a later run.
  -h, --help            this help
  -v, --version         the version of bizmsg

bizmsg bulk report
Prints one line per recipient of a bulk job from its journal: its key, number, outcome (sent,
failed, unknown, skipped, suppressed, or delivered, read, failed as the statuses say), message id,
error and times.

  --journal DIR         the job's journal (bizmsg bulk prints it at the end)
  --id JOB              the job's id (default: the one job the journal holds)
  --statuses DIR        a fileStatusStore folder the app's webhook receiver keeps: outcomes are
                        advanced to delivered, read or failed by what it holds
  --format csv|json     CSV a spreadsheet opens (default; formulas made inert) or JSON lines

bizmsg contacts import
Makes the account's contacts match the CSV FILE, one contact per phone number (contacts.sync): reads
the account's contacts once, creates the new numbers, updates only the contacts that differ.
Running it again writes only what still differs.

  --csv FILE            the contacts: columns \`phone\`, \`name\`, \`email\`, \`tags\` (separated
                        by ;), any other column a custom field; an empty cell leaves that field as
                        the contact has it. Rows of one number in any spelling are merged (the
                        later row wins); a row whose phone is empty or invalid fails (listed by its line).
  --variant 1|2         the service's API variant (default 1)
  --concurrency N       writes at once, 1 to ${MAX_CONCURRENCY} (default 8)

${ENVIRONMENT} Ctrl-C stops: no more writes
start (bulk: no more rows are read) and those in flight finish (run the command again to go on);
Ctrl-C again quits at once.
Exit code: 0 nothing failed; 1 a row failed, the run stopped before the end, or an error stopped it;
2 a mistake in the command or its files (nothing was sent); 130 quit by a second Ctrl-C.`;

/** What `bizmsg bulk` was asked to do. */
export interface BulkCommand {
  readonly kind: 'bulk';
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
  readonly resendUnknown: boolean;
  /** Files of numbers never to send to. */
  readonly suppress: readonly string[];
}

/** What `bizmsg bulk report` was asked to do. */
export interface ReportCommand {
  readonly kind: 'bulk report';
  readonly journal: string;
  readonly id: string | undefined;
  readonly statuses: string | undefined;
  readonly format: 'csv' | 'json';
}

const TEXT = { type: 'string' } as const;
/** The flags, as node:util's parseArgs reads them. */
const FLAGS = {
  csv: TEXT,
  template: TEXT,
  language: TEXT,
  variant: TEXT,
  account: TEXT,
  templates: TEXT,
  journal: TEXT,
  id: TEXT,
  concurrency: TEXT,
  'resend-unknown': { type: 'boolean' },
  suppress: { type: 'string', multiple: true },
} as const;

/** The flags of `bizmsg bulk report`. */
const REPORT_FLAGS = { journal: TEXT, id: TEXT, statuses: TEXT, format: TEXT } as const;

/** What `bizmsg contacts import` was asked to do. */
export interface ImportCommand {
  readonly kind: 'contacts import';
  readonly csv: string;
  readonly variant: 1 | 2;
  readonly concurrency: number;
}

/** The flags of `bizmsg contacts import`. */
const IMPORT_FLAGS = { csv: TEXT, variant: TEXT, concurrency: TEXT } as const;

/** Reads the command line (after `node bizmsg`): `help`, `version`, or a command. */
export function parseCommand(
  argv: readonly string[],
): BulkCommand | ReportCommand | ImportCommand | 'help' | 'version' {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return 'help';
  if (command === '--version' || command === '-v') return 'version';
  if (rest.includes('--help') || rest.includes('-h')) return 'help';
  if (command === 'contacts' && rest[0] === 'import') return parseImport(rest.slice(1));
  if (command !== 'bulk') throw new CliUsageError(`unknown command ${showValue(command)}`);
  if (rest[0] === 'report') return parseReport(rest.slice(1));
  const values = flags(rest, FLAGS);
  const required = (name: 'csv' | 'template' | 'language') => {
    const value = values[name];
    if (value === undefined || value === '') throw new CliUsageError(`--${name} is required`);
    return value;
  };
  const csv = required('csv');
  const template = required('template');
  const language = required('language');
  return {
    kind: 'bulk',
    csv,
    template,
    language,
    variant: variantOf(values.variant),
    account: whole(values.account, 'account', 1),
    templates: values.templates,
    journal: values.journal ?? `${csv}.journal`,
    id: values.id ?? `${basename(csv)}:${template}:${language}`,
    concurrency: concurrencyOf(values.concurrency),
    resendUnknown: values['resend-unknown'] === true,
    suppress: (values.suppress ?? []).map((file) => {
      if (file === '') throw new CliUsageError('--suppress needs a file');
      return file;
    }),
  };
}

function parseReport(args: readonly string[]): ReportCommand {
  const values = flags(args, REPORT_FLAGS);
  if (values.journal === undefined || values.journal === '') throw new CliUsageError('--journal is required');
  const format = values.format ?? 'csv';
  if (format !== 'csv' && format !== 'json') throw new CliUsageError('--format must be csv or json');
  if (values.id === '') throw new CliUsageError('--id must not be empty');
  if (values.statuses === '') throw new CliUsageError('--statuses needs a folder');
  return { kind: 'bulk report', journal: values.journal, id: values.id, statuses: values.statuses, format };
}

function parseImport(args: readonly string[]): ImportCommand {
  const values = flags(args, IMPORT_FLAGS);
  if (values.csv === undefined || values.csv === '') throw new CliUsageError('--csv is required');
  return {
    kind: 'contacts import',
    csv: values.csv,
    variant: variantOf(values.variant),
    concurrency: concurrencyOf(values.concurrency),
  };
}

/** How much of parseArgs's message a usage error shows. */
const SHOWN_ERROR_CHARS = 200;

/** The flags of `args`, as parseArgs reads them; a mistake is a CliUsageError. */
function flags<const T extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>(
  args: readonly string[],
  options: T,
) {
  try {
    return parseArgs({ args: [...args], options, strict: true }).values;
  } catch (error) {
    // parseArgs names the flag as given: one pasted with a whole value in it is cut short.
    const { message } = error as Error;
    throw new CliUsageError(message.length > SHOWN_ERROR_CHARS ? `${message.slice(0, SHOWN_ERROR_CHARS)}…` : message);
  }
}

function variantOf(value: string | undefined): 1 | 2 {
  const variant = whole(value, 'variant', 1);
  if (variant !== 1 && variant !== 2) throw new CliUsageError('--variant must be 1 or 2');
  return variant;
}

function concurrencyOf(value: string | undefined): number {
  const concurrency = whole(value, 'concurrency', 8);
  if (concurrency > MAX_CONCURRENCY) throw new CliUsageError(`--concurrency must be at most ${MAX_CONCURRENCY}`);
  return concurrency;
}

function whole(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new CliUsageError(`--${name} must be a positive whole number`);
  return number;
}
