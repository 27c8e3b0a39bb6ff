// Writing a recording: each exchange redacted into one JSON file of DIR, written whole under
// DIR/.partial/ and then renamed into DIR, so that a crash at any moment leaves only whole files in DIR.
// Recordings are committed: files readable in a diff yet about the size of their exchange whatever
// its nesting, DIR bounded in size, and both readable by their owner only.
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Variant } from '../../../contract/variant.js';
import type { Exchange } from '../exchange.js';
import { keyOf } from '../service.js';
import {
  fileNameOf,
  RECORDED_HEADERS,
  RECORDING_MARK,
  RECORDING_VERSION,
  seqOfFileName,
  type RecordedBody,
  type RecordedExchange,
} from './format.js';
import type { Redactor } from './redaction.js';

/** Where files are written before they are whole; emptied at start (what a crash left there). */
const PARTIAL = '.partial';
/** The most bytes of files waiting to be written: past it, an exchange is not recorded (and counted). */
const PENDING_LIMIT = 64 * 1_048_576;
/** The most bytes a recording's folder holds by default: past it, new exchanges are counted, not written. */
export const DEFAULT_RECORD_LIMIT = 256 * 1_048_576;
/** How deep a file is indented: deeper parts are written compactly, so a file stays about the size of its exchange. */
const INDENTED_DEPTH = 8;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** How a recording is bounded, and who hears that it reached its bound. */
export interface RecordingLimits {
  /** The most bytes the folder's recording files hold. */
  readonly maxBytes: number;
  /** Called once, when the first exchange is not written because the folder is full. */
  readonly onFull?: ((maxBytes: number) => void) | undefined;
}

/** Records the exchanges of one proxy into a folder. */
export class RecordingWriter {
  readonly #dir: string;
  readonly #variant: Variant;
  readonly #redactor: Redactor;
  readonly #limits: RecordingLimits;
  #seq: number;
  #pending = 0;
  /** Bytes of the recording files in the folder, and of those being written. */
  #bytes: number;
  #full = false;
  #writing: Promise<unknown> = Promise.resolve();
  #skipped = 0;

  /**
   * Opens `dir` (made if missing; its mode and its files' owner-only), continuing after the
   * highest seq its files have, its size counted against `limits.maxBytes`.
   */
  constructor(dir: string, variant: Variant, redactor: Redactor, limits: RecordingLimits) {
    this.#dir = dir;
    this.#variant = variant;
    this.#redactor = redactor;
    this.#limits = limits;
    mkdirSync(join(dir, PARTIAL), { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    chmodSync(join(dir, PARTIAL), 0o700);
    for (const name of readdirSync(join(dir, PARTIAL))) rmSync(join(dir, PARTIAL, name), { force: true });
    const recorded = readdirSync(dir).filter((name) => seqOfFileName(name) !== undefined);
    this.#seq = Math.max(0, ...recorded.map((name) => seqOfFileName(name)!));
    this.#bytes = recorded.reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  }

  /** How many exchanges were not recorded because writing fell behind (or failed). */
  get skipped(): number {
    return this.#skipped;
  }

  /** Redacts `exchange` and writes it as the next file; resolves with the file's name, or undefined when it was not written. */
  async record(exchange: Exchange): Promise<string | undefined> {
    const seq = (this.#seq += 1);
    const recorded = await this.#recorded(seq, exchange);
    const text = `${indented(recorded, 0, '')}\n`;
    const size = Buffer.byteLength(text);
    if (this.#bytes + size > this.#limits.maxBytes) return this.#skip(true);
    if (this.#pending + size > PENDING_LIMIT) return this.#skip(false);
    this.#pending += size;
    this.#bytes += size;
    const name = fileNameOf(seq, exchange.method, recorded.request.path);
    const written = this.#write(name, text).then(
      () => name,
      () => {
        this.#bytes -= size;
        return this.#skip(false);
      },
    );
    this.#writing = Promise.all([this.#writing, written]);
    return written.finally(() => (this.#pending -= size));
  }

  /** Counts an exchange not written; the first time the folder is full, says so. */
  #skip(full: boolean): Promise<undefined> {
    this.#skipped += 1;
    if (full && !this.#full) {
      this.#full = true;
      this.#limits.onFull?.(this.#limits.maxBytes);
    }
    return Promise.resolve(undefined);
  }

  /** Resolves once every file asked for so far is written. */
  async flushed(): Promise<void> {
    await this.#writing;
  }

  async #write(name: string, text: string): Promise<void> {
    const partial = join(this.#dir, PARTIAL, name);
    const file = await open(partial, 'w', 0o600);
    try {
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(partial, join(this.#dir, name));
  }

  async #recorded(seq: number, exchange: Exchange): Promise<RecordedExchange> {
    const key = keyOf(exchange.requestHeaders);
    const secrets = key === undefined ? [] : [key];
    const redactor = this.#redactor;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(exchange.responseHeaders))
      if (RECORDED_HEADERS.has(name)) headers[name] = value;
    return {
      bizmsg: RECORDING_MARK,
      version: RECORDING_VERSION,
      seq,
      at: new Date(exchange.at).toISOString(),
      variant: this.#variant,
      request: {
        method: exchange.method,
        path: redactor.path(exchange.path, secrets),
        query: redactor.query(new URLSearchParams(exchange.search), secrets),
        ...(await recordedBody(exchange.requestBody, redactor, secrets)),
      },
      response: {
        status: exchange.status,
        headers,
        ...(await recordedBody(exchange.responseBody, redactor, secrets)),
      },
    };
  }
}

/**
 * A body as a recording keeps it: its JSON value redacted, or its text (a form, plain text, HTML)
 * redacted as a form's fields or as text: numbers, e-mail addresses, keys and `secrets` replaced.
 */
export async function recordedBody(
  bytes: Uint8Array | undefined,
  redactor: Redactor,
  secrets: readonly string[],
): Promise<RecordedBody> {
  if (bytes === undefined) return { body: null, omitted: 'larger than the proxy copies (4 MiB), or not decodable' };
  if (bytes.byteLength === 0) return { body: null };
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { body: null, omitted: 'not UTF-8 text' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { body: null, text: redactor.form(text, secrets) ?? (await redactor.textInSlices(text, secrets)) };
  }
  return { body: await redactor.body(json, secrets) };
}

/**
 * `value` as JSON, indented by two spaces down to INDENTED_DEPTH, compact below it: a diff reads
 * the exchange, and a body nested 1,500 deep stays about its own size instead of growing with the
 * square of its depth.
 */
function indented(value: unknown, depth: number, indent: string): string {
  if (depth >= INDENTED_DEPTH || typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${indented(item ?? null, depth + 1, inner)}`).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${indented(item, depth + 1, inner)}`);
  return `{\n${lines.join(',\n')}\n${indent}}`;
}
