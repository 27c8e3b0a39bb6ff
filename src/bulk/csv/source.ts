// What readCsv reads from, as one stream of bytes: a path or a file URL (opened at the first read),
// the CSV text itself, a Node or web stream, or any async iterable of chunks.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import type { CsvSource } from './read-csv.js';

/** The source as a stream of bytes, opened at the first read. */
export function streamOf(source: CsvSource): Readable {
  if (typeof source === 'string') {
    if (/[\r\n]/.test(source)) return Readable.from([Buffer.from(source)]);
    if (source === '')
      throw new InvalidArgumentError('readCsv(source): `source` is an empty string: give a path or the CSV text.');
    return createReadStream(source);
  }
  if (source instanceof URL) return createReadStream(fileURLToPath(source));
  if (source instanceof Uint8Array) return Readable.from([Buffer.from(source)]);
  if (source instanceof Readable) return source;
  if (typeof ReadableStream !== 'undefined' && source instanceof ReadableStream)
    return Readable.fromWeb(source as import('node:stream/web').ReadableStream<Uint8Array>);
  if (typeof (source as Partial<AsyncIterable<unknown>> | null)?.[Symbol.asyncIterator] === 'function')
    return Readable.from(bytesOf(source as AsyncIterable<Uint8Array | string>));
  throw new InvalidArgumentError(
    `readCsv(source): \`source\` must be a path, the CSV text, or a stream of its bytes, got ${showValue(source)}.`,
  );
}

/** Each chunk as bytes (a string as UTF-8), so that the strict decoder sees what a file would hold. */
async function* bytesOf(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) yield typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
}
