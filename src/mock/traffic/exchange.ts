// One exchange with the real service as the proxy and replay see it: what was asked and answered,
// with bounded copies of both bodies (decoded from their content encoding), taken as the bytes pass.
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { concat } from '../../shared/bytes.js';

/** The most bytes of one body (as sent, and once decoded) the proxy copies to check and record it. */
export const COPY_LIMIT = 4 * 1_048_576;
/** The most bytes the copies of all exchanges in flight hold together: past it, an exchange passes uncopied. */
const COPIES_LIMIT = 64 * 1_048_576;

/** One request and its answer. */
export interface Exchange {
  /** When the request arrived (ms since the epoch). */
  readonly at: number;
  readonly durationMs: number;
  readonly method: string;
  /** The path below the base URL (`/contacts/7`). */
  readonly path: string;
  /** The query, as sent (`?page=2`, or ''). */
  readonly search: string;
  /** The request's headers, names in lower case. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** The request body's bytes; undefined when it was not copied (over the limit, or no budget left). */
  readonly requestBody: Uint8Array | undefined;
  readonly status: number;
  /** The answer's headers, names in lower case (several of one name joined with ", "). */
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** The answer body's bytes, decoded from its content encoding; undefined when it could not be. */
  readonly responseBody: Uint8Array | undefined;
}

/** What the copies of the bodies in flight hold, bounded: no flood makes the proxy hold more. */
class CopyBudget {
  #held = 0;

  /** Takes `bytes` from the budget: false when they do not fit (the copy is given up). */
  take(bytes: number): boolean {
    if (this.#held + bytes > COPIES_LIMIT) return false;
    this.#held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.#held -= bytes;
  }
}

const budget = new CopyBudget();

/**
 * A copy of a body as it passes, within `COPY_LIMIT` and the budget of all copies; a body that does
 * not fit is given up (`bytes()` undefined), never cut (a cut body would be checked or replayed wrong).
 */
export class BodyCopy {
  #chunks: Uint8Array[] | undefined = [];
  #size = 0;

  /** Copies one chunk (a copy: the chunk's buffer may be reused). */
  add(chunk: Uint8Array): void {
    if (this.#chunks === undefined) return;
    if (this.#size + chunk.byteLength > COPY_LIMIT || !budget.take(chunk.byteLength)) {
      this.giveUp();
      return;
    }
    this.#chunks.push(new Uint8Array(chunk));
    this.#size += chunk.byteLength;
  }

  /** Drops what was copied, and copies nothing more. */
  giveUp(): void {
    budget.give(this.#size);
    this.#chunks = undefined;
    this.#size = 0;
  }

  /** The body, once whole, and the budget given back; undefined when it was given up. */
  take(): Uint8Array | undefined {
    const chunks = this.#chunks;
    if (chunks === undefined) return undefined;
    const body = concat(chunks, this.#size);
    this.giveUp();
    return body;
  }
}

const decoders: Readonly<Record<string, (bytes: Uint8Array, options: { maxOutputLength: number }) => Promise<Buffer>>> =
  {
    gzip: promisify(gunzip),
    'x-gzip': promisify(gunzip),
    deflate: promisify(inflate),
    br: promisify(brotliDecompress),
  };

/**
 * `bytes` decoded from `encoding` (a `Content-Encoding` value: none, or gzip, deflate, br, one or
 * several), within `COPY_LIMIT` once decoded (so a small bomb stays small); undefined when an
 * encoding is unknown or the bytes do not decode.
 */
export async function decoded(bytes: Uint8Array, encoding: string | undefined): Promise<Uint8Array | undefined> {
  const codings = (encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  let body = bytes;
  // Applied in the order listed, so decoded in the reverse.
  for (const coding of codings.reverse()) {
    const decode = decoders[coding];
    if (decode === undefined) return undefined;
    try {
      body = await decode(body, { maxOutputLength: COPY_LIMIT });
    } catch {
      return undefined;
    }
  }
  return body;
}
