// Reading a recording: every file of the folder in recorded order, checked, and one variant for all.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Variant } from '../../../contract/variant.js';
import { InvalidArgumentError } from '../../../shared/errors.js';
import { RECORDING_VERSION, RecordedExchangeSchema, seqOfFileName, type RecordedExchange } from './format.js';

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
  const files = names
    .filter((name) => seqOfFileName(name) !== undefined)
    .map((file) => ({ file, exchange: readFile(join(dir, file), file) }))
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

function readFile(path: string, file: string): RecordedExchange {
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
  return parsed.data;
}
