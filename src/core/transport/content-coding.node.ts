// Response bodies decoded as Node's fetch decodes them (gzip, deflate, br, and zstd where it does), for the Node exchange.

/** Statuses without a body, which fetch never decodes. */
const NULL_BODY: ReadonlySet<number> = new Set([101, 204, 205, 304]);
/** More codings than this is an attack on the decoder; fetch refuses them too. */
const MAX_CODINGS = 5;

/**
 * The codings fetch undoes. zstd only from undici 7 on, where Node has it (Node 24; undici 6 leaves
 * it): fetch never asks for zstd, so this is for a server that sends it anyway.
 */
function knownCodings(): ReadonlySet<string> {
  const { undici, zstd } = (globalThis as { process?: { versions?: Record<string, string> } }).process?.versions ?? {};
  const withZstd = zstd !== undefined && Number(undici?.split('.')[0]) >= 7;
  return new Set(['gzip', 'x-gzip', 'deflate', 'br', ...(withZstd ? ['zstd'] : [])]);
}

let known: ReadonlySet<string> | undefined;

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
  known ??= knownCodings();
  const undo = codings.reverse().map((coding) => coding.trim());
  return undo.every((coding) => known!.has(coding)) ? undo : [];
}

/**
 * `bytes` with `codings` undone, leniently as fetch (and curl) decode: a body cut short gives what
 * could be read. A body that cannot be decoded fails as fetch's `text()` does.
 */
export async function decodeBody(bytes: Buffer, codings: readonly string[]): Promise<Buffer> {
  if (codings.length === 0 || bytes.length === 0) return bytes;
  const zlib = await import('node:zlib');
  const { Z_SYNC_FLUSH, BROTLI_OPERATION_FLUSH } = zlib.constants;
  const flush = { flush: Z_SYNC_FLUSH, finishFlush: Z_SYNC_FLUSH };
  const brotli = { flush: BROTLI_OPERATION_FLUSH, finishFlush: BROTLI_OPERATION_FLUSH };
  const undo: Record<string, (input: Buffer) => Buffer> = {
    gzip: (input) => zlib.gunzipSync(input, flush),
    'x-gzip': (input) => zlib.gunzipSync(input, flush),
    // "deflate" is meant to be zlib-wrapped, but servers send it raw too; fetch tells them apart so.
    deflate: (input) =>
      (input[0]! & 0x0f) === 0x08 ? zlib.inflateSync(input, flush) : zlib.inflateRawSync(input, flush),
    br: (input) => zlib.brotliDecompressSync(input, brotli),
    zstd: (input) => (zlib as unknown as Record<string, (input: Buffer) => Buffer>)['zstdDecompressSync']!(input),
  };
  try {
    return codings.reduce((decoded, coding) => undo[coding]!(decoded), bytes);
  } catch (error) {
    throw new TypeError('terminated', { cause: error });
  }
}
