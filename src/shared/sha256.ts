// SHA-256 on Web Crypto, which every runtime the package supports has.

/** Bytes as lower-case hex. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

const encoder = /* @__PURE__ */ new TextEncoder();

/** The SHA-256 of a text (as UTF-8) or of bytes, as lower-case hex. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}
