// Writing a recording: each exchange redacted into one JSON file of DIR, written whole under
// DIR/.partial/ and then renamed into DIR, so that a crash at any moment leaves only whole files in DIR.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
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
import { withoutSecrets, type Redactor } from './redaction.js';

/** Where files are written before they are whole; emptied at start (what a crash left there). */
const PARTIAL = '.partial';
/** The most bytes of files waiting to be written: past it, an exchange is not recorded (and counted). */
const PENDING_LIMIT = 64 * 1_048_576;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Records the exchanges of one proxy into a folder. */
export class RecordingWriter {
  readonly #dir: string;
  readonly #variant: Variant;
  readonly #redactor: Redactor;
  #seq: number;
  #pending = 0;
  #writing: Promise<unknown> = Promise.resolve();
  #skipped = 0;

  /** Opens `dir` (made if missing), continuing after the highest seq its files have. */
  constructor(dir: string, variant: Variant, redactor: Redactor) {
    this.#dir = dir;
    this.#variant = variant;
    this.#redactor = redactor;
    mkdirSync(join(dir, PARTIAL), { recursive: true });
    for (const name of readdirSync(join(dir, PARTIAL))) rmSync(join(dir, PARTIAL, name), { force: true });
    this.#seq = Math.max(0, ...readdirSync(dir).map((name) => seqOfFileName(name) ?? 0));
  }

  /** How many exchanges were not recorded because writing fell behind (or failed). */
  get skipped(): number {
    return this.#skipped;
  }

  /** Redacts `exchange` and writes it as the next file; resolves with the file's name, or undefined when it was not written. */
  record(exchange: Exchange): Promise<string | undefined> {
    const seq = (this.#seq += 1);
    const recorded = this.#recorded(seq, exchange);
    const text = `${JSON.stringify(recorded, null, 2)}\n`;
    if (this.#pending + text.length > PENDING_LIMIT) {
      this.#skipped += 1;
      return Promise.resolve(undefined);
    }
    this.#pending += text.length;
    const name = fileNameOf(seq, exchange.method, recorded.request.path);
    const written = this.#write(name, text).then(
      () => name,
      () => {
        this.#skipped += 1;
        return undefined;
      },
    );
    this.#writing = Promise.all([this.#writing, written]);
    return written.finally(() => (this.#pending -= text.length));
  }

  /** Resolves once every file asked for so far is written. */
  async flushed(): Promise<void> {
    await this.#writing;
  }

  async #write(name: string, text: string): Promise<void> {
    const partial = join(this.#dir, PARTIAL, name);
    const file = await open(partial, 'w');
    try {
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(partial, join(this.#dir, name));
  }

  #recorded(seq: number, exchange: Exchange): RecordedExchange {
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
        ...recordedBody(exchange.requestBody, (json) => redactor.body(json, secrets), secrets),
      },
      response: {
        status: exchange.status,
        headers,
        ...recordedBody(exchange.responseBody, (json) => redactor.body(json, secrets), secrets),
      },
    };
  }
}

/** A body as a recording keeps it: its JSON value redacted, or its text with the secrets replaced. */
export function recordedBody(
  bytes: Uint8Array | undefined,
  redact: (json: unknown) => unknown,
  secrets: readonly string[],
): RecordedBody {
  if (bytes === undefined) return { body: null, omitted: 'larger than the proxy copies (4 MiB), or not decodable' };
  if (bytes.byteLength === 0) return { body: null };
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { body: null, omitted: 'not UTF-8 text' };
  }
  try {
    return { body: redact(JSON.parse(text)) };
  } catch {
    return { body: null, text: withoutSecrets(text, secrets) };
  }
}
