// The text of a CSV file, decoded strictly as it streams: UTF-8, or UTF-16 when the file starts
// with a UTF-16 byte order mark. A file in another encoding (Latin-1, Windows-1252: an Excel "CSV"
// export) is refused at its first invalid byte, named by line and byte offset, before any row is
// used: decoded loosely, its letters would reach customers as U+FFFD.
import { Transform, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** The encodings a CSV may be in: UTF-8, or UTF-16 announced by its byte order mark. */
type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** A CSV whose bytes are not valid in its encoding: where the first invalid one is. */
export class CsvEncodingError extends Error {
  constructor(
    readonly line: number,
    readonly offset: number,
    readonly encoding: string,
  ) {
    super(`line ${line} is not valid ${encoding} (byte offset ${offset})`);
    this.name = 'CsvEncodingError';
  }
}

/** The line breaks of `text` as a text editor counts them: CR LF is one, a lone CR or LF one each. */
export function lineBreaks(text: string): number {
  return text.match(/\r\n|\r|\n/g)?.length ?? 0;
}

/**
 * A stream from the file's bytes to its text (a byte order mark kept as U+FEFF, for csv-parse's
 * `bom` to drop). It fails with a `CsvEncodingError` at the first byte that is not valid.
 */
export class CsvText extends Transform {
  #decoder: TextDecoder | undefined;
  /** Bytes given before the current chunk, and those turned into text (the text's length in the file's encoding). */
  #given = 0;
  #decoded = 0;
  /** The last bytes given (at most 3), of which those not yet text start the next chunk's sequence. */
  #tail: Uint8Array = new Uint8Array(0);
  /** Line breaks in the text so far, and whether it ended with a CR (a CR LF across chunks is one). */
  #breaks = 0;
  #afterCr = false;

  override _transform(chunk: Buffer, _: BufferEncoding, callback: TransformCallback): void {
    this.#decoder ??= strictDecoder(encodingOf(chunk));
    let text: string;
    try {
      text = this.#decoder.decode(chunk, { stream: true });
    } catch {
      callback(this.#invalid(chunk));
      return;
    }
    this.#took(text);
    this.#given += chunk.length;
    this.#tail = lastBytes(this.#tail, chunk);
    callback(null, text);
  }

  override _flush(callback: TransformCallback): void {
    if (this.#decoder === undefined) return callback();
    try {
      callback(null, this.#decoder.decode());
    } catch {
      // The file ends inside a character.
      callback(this.#invalid(new Uint8Array(0)));
    }
  }

  /** Counts `text` as decoded. */
  #took(text: string): void {
    this.#decoded += encodedLength(text, this.#decoder!.encoding);
    this.#breaks += lineBreaks(text) - (this.#afterCr && text.startsWith('\n') ? 1 : 0);
    if (text !== '') this.#afterCr = text.endsWith('\r');
  }

  /** Where the invalid byte of `chunk` (or of the bytes before it not yet text) is. */
  #invalid(chunk: Uint8Array): CsvEncodingError {
    const { encoding } = this.#decoder!;
    const pending = this.#tail.subarray(this.#tail.length - (this.#given - this.#decoded));
    const valid = validPrefix(Buffer.concat([pending, chunk]), encoding);
    this.#took(valid);
    return new CsvEncodingError(this.#breaks + 1, this.#decoded, ENCODING_NAMES[encoding as CsvEncoding]);
  }
}

/** A row longer than the limit, found before it is parsed: the line it starts on. */
export class CsvRowTooLongError extends Error {
  constructor(readonly line: number) {
    super(`the row at line ${line} is too long`);
    this.name = 'CsvRowTooLongError';
  }
}

/**
 * A stream of a CSV's text that fails with a `CsvRowTooLongError` once a row (from one line break
 * outside quotes to the next) runs past `maxBytes` bytes of UTF-8, whatever it holds. csv-parse's
 * own `max_record_size` bounds each field, not the row: 20 million commas make 20 million empty
 * fields of a row it would gather whole (1.3 GB).
 */
export class CsvRowLimit extends Transform {
  readonly #maxBytes: number;
  /** Bytes of the current row so far, whether they are inside quotes, and the editor's line it starts on and the one it is at. */
  #row = 0;
  #quoted = false;
  #startLine = 1;
  #line = 1;
  #afterCr = false;
  /** The text comes as UTF-8 bytes (`CsvText`'s strings, as a stream hands them on), a character maybe split across two. */
  readonly #decoder = new StringDecoder('utf8');

  constructor(maxBytes: number) {
    super();
    this.#maxBytes = maxBytes;
  }

  override _transform(chunk: Buffer, _: BufferEncoding, callback: TransformCallback): void {
    const text = this.#decoder.write(chunk);
    let from = 0;
    for (const { index } of text.matchAll(/["\r\n]/g)) {
      if (!this.#add(text, from, index + 1)) return callback(new CsvRowTooLongError(this.#startLine));
      from = index + 1;
      this.#mark(text[index]!);
    }
    if (!this.#add(text, from, text.length)) return callback(new CsvRowTooLongError(this.#startLine));
    callback(null, text);
  }

  override _flush(callback: TransformCallback): void {
    callback(null, this.#decoder.end());
  }

  /** Counts `text` from `start` to `end` into the row: false once it is too long. */
  #add(text: string, start: number, end: number): boolean {
    this.#row += Buffer.byteLength(text.slice(start, end));
    return this.#row <= this.#maxBytes;
  }

  /** Follows a quote or a line break: a break outside quotes ends the row (CR LF is one break). */
  #mark(char: string): void {
    const afterCr = this.#afterCr;
    this.#afterCr = char === '\r';
    if (char === '"') {
      this.#quoted = !this.#quoted;
      return;
    }
    if (!(char === '\n' && afterCr)) this.#line += 1;
    if (this.#quoted) return;
    this.#row = 0;
    this.#startLine = this.#line;
  }
}

const ENCODING_NAMES: Record<CsvEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16LE',
  'utf-16be': 'UTF-16BE',
};

/** UTF-16 when the file starts with its byte order mark, else UTF-8. */
function encodingOf(start: Uint8Array): CsvEncoding {
  if (start[0] === 0xff && start[1] === 0xfe) return 'utf-16le';
  if (start[0] === 0xfe && start[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

function strictDecoder(encoding: CsvEncoding): TextDecoder {
  return new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
}

/** How many bytes `text` takes in `encoding`. */
function encodedLength(text: string, encoding: string): number {
  return encoding === 'utf-8' ? Buffer.byteLength(text, 'utf8') : text.length * 2;
}

/** The last (at most 3) bytes of `earlier` followed by `chunk`. */
function lastBytes(earlier: Uint8Array, chunk: Uint8Array): Uint8Array {
  return chunk.length >= 3 ? chunk.subarray(chunk.length - 3) : Buffer.concat([earlier, chunk]).subarray(-3);
}

/** The text of `bytes` (starting on a character) before its first invalid sequence, decoded a byte at a time to find it. */
function validPrefix(bytes: Uint8Array, encoding: string): string {
  const decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
  let text = '';
  try {
    for (let at = 0; at < bytes.length; at += 1) text += decoder.decode(bytes.subarray(at, at + 1), { stream: true });
    decoder.decode();
  } catch {
    // Here starts the sequence that is not valid.
  }
  return text;
}
