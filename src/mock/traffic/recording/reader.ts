// Reading a recording: every file of the folder in recorded order, checked, and one variant for all.
// A recording arrives by pull request: a file is read as hostile, and the replay answers only what a
// recording may hold (a status that can carry what it holds, the allowlisted headers, the body).
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';
import type { Variant } from '../../../contract/variant.js';
import { InvalidArgumentError } from '../../../shared/errors.js';
import {
  RECORDED_HEADERS,
  RECORDING_VERSION,
  RecordedExchangeSchema,
  seqOfFileName,
  type RecordedExchange,
} from './format.js';

/** One exchange of a recording, and the file it is in. */
export interface RecordingFile {
  readonly file: string;
  readonly exchange: RecordedExchange;
}

/** A recording, read. */
export interface Recording {
  readonly variant: Variant;
  /** In recorded order (`seq`). */
  readonly files: readonly RecordingFile[];
}

/** Reads the recording in `dir`; a folder without one, or a file that is not one, is refused naming it. */
export function readRecording(dir: string): Recording {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    throw new InvalidArgumentError(`${dir} is not a folder this process can read.`);
  }
  const inside = realpathSync(dir);
  const files = names
    .filter((name) => seqOfFileName(name) !== undefined)
    .map((file) => ({ file, exchange: readFile(join(dir, file), file, inside) }))
    .sort((a, b) => a.exchange.seq - b.exchange.seq);
  const first = files[0];
  if (first === undefined)
    throw new InvalidArgumentError(`${dir} holds no recording: record one with bizmsg-mock proxy --record ${dir}.`);
  const other = files.find(({ exchange }) => exchange.variant !== first.exchange.variant);
  if (other !== undefined)
    throw new InvalidArgumentError(
      `${dir} mixes variants: ${first.file} is of Variant ${first.exchange.variant}, ${other.file} of Variant ${other.exchange.variant}.`,
    );
  return { variant: first.exchange.variant, files };
}

function readFile(path: string, file: string, dir: string): RecordedExchange {
  if (lstatSync(path).isSymbolicLink() || !within(dir, realpathSync(path)))
    throw new InvalidArgumentError(
      `${file} of the recording is a link or lies outside the folder: a recording holds its own files.`,
    );
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new InvalidArgumentError(`${file} of the recording is not JSON.`);
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > RECORDING_VERSION)
    throw new InvalidArgumentError(
      `${file} was recorded by a later bizmsg (format version ${version}; this one reads up to ${RECORDING_VERSION}): update bizmsg.`,
    );
  const parsed = RecordedExchangeSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidArgumentError(
      `${file} is not a recorded exchange: ${issue.path.join('.') || '(root)'} ${issue.message}.`,
    );
  }
  return answerable(parsed.data, file);
}

/** True when `path` lies inside `dir` (both real paths). */
function within(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Statuses whose answers never carry a body (RFC 9110): a recording that gives them one is refused. */
const NO_BODY = new Set([204, 205, 304]);

/**
 * The exchange as the replay may answer it: its status checked (200 to 599; a 204, 205 or 304
 * without a body), its headers cut to the allowlisted ones with values a header can hold. The
 * replay frames the answer itself: a recorded `Content-Length`, `Transfer-Encoding`, `Set-Cookie`,
 * `Location` or CORS header is never served.
 */
function answerable(exchange: RecordedExchange, file: string): RecordedExchange {
  const { response } = exchange;
  if (response.status < 200 || response.status > 599)
    throw new InvalidArgumentError(`${file} answers with status ${response.status}: a replay answers from 200 to 599.`);
  const hasBody = response.text !== undefined || (response.body !== null && response.body !== undefined);
  if (NO_BODY.has(response.status) && hasBody)
    throw new InvalidArgumentError(`${file} answers ${response.status} with a body, which that status never carries.`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    const lower = name.toLowerCase();
    if (RECORDED_HEADERS.has(lower) && /^[\t\x20-\x7e]*$/.test(value)) headers[lower] = value;
  }
  return { ...exchange, response: { ...response, headers } };
}
