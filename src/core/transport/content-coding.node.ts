// Response bodies decoded as Node's fetch decodes them (gzip, deflate, br), for the Node exchange.

/** Statuses without a body, which fetch never decodes. */
const NULL_BODY: ReadonlySet<number> = new Set([101, 204, 205, 304]);
/** More codings than this is an attack on the decoder; fetch refuses them too. */
const MAX_CODINGS = 5;

/**
 * The codings to undo, last applied first, as fetch reads `Content-Encoding`: none for HEAD or a
 * body-less status, and none at all once one is unknown (the body is then left as it came).
 */
export function contentCodings(method: string, status: number, headers: Headers): string[] | Error {
  const value = headers.get('content-encoding');
  if (value === null || method === 'HEAD' || NULL_BODY.has(status)) return [];
  const codings = value.toLowerCase().split(',');
  if (codings.length > MAX_CODINGS) {
    return new Error(`too many content-encodings in response: ${codings.length}, maximum allowed is ${MAX_CODINGS}`);
  }
  const undo: string[] = [];
  for (const coding of codings.reverse().map((c) => c.trim())) {
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== 'deflate' && coding !== 'br') return [];
    undo.push(coding);
  }
  return undo;
}

/**
 * `bytes` with `codings` undone, leniently as fetch (and curl) decode: a body cut short gives what
 * could be read. A body that cannot be decoded fails as fetch's `text()` does.
 */
export async function decodeBody(bytes: Buffer, codings: readonly string[]): Promise<Buffer> {
  if (codings.length === 0 || bytes.length === 0) return bytes;
  const zlib = await import('node:zlib');
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const brotli = {
    flush: zlib.constants.BROTLI_OPERATION_FLUSH,
    finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
  };
  try {
    let decoded = bytes;
    for (const coding of codings) {
      if (coding === 'br') decoded = zlib.brotliDecompressSync(decoded, brotli);
      else if (coding !== 'deflate') decoded = zlib.gunzipSync(decoded, flush);
      // "deflate" is meant to be zlib-wrapped, but servers send it raw too; fetch tells them apart so.
      else
        decoded =
          (decoded[0]! & 0x0f) === 0x08 ? zlib.inflateSync(decoded, flush) : zlib.inflateRawSync(decoded, flush);
    }
    return decoded;
  } catch (error) {
    throw new TypeError('terminated', { cause: error });
  }
}
