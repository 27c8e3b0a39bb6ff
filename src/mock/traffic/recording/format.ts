// The recording's file format: one JSON file per exchange, its schema and its name. Documented in
// docs/emulator.md; a version's files replay on every later version.
import * as z from 'zod/mini';

/** What the `bizmsg` field of every file says. */
export const RECORDING_MARK = 'recording';
/** The format's version: a later bizmsg reads every earlier one. */
export const RECORDING_VERSION = 1;

/** A recorded query: each parameter's value, several as an array. */
const QuerySchema = /* @__PURE__ */ z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/** A recorded body: its JSON value (`body`), or its text when it was not JSON (`text`), or neither. */
const BodyFields = {
  /** The decoded body's JSON value; null when it was empty, not JSON, or not copied. */
  body: z.unknown(),
  /** The body's text when it was not JSON. */
  text: z.optional(z.string()),
  /** Why the body is not there: it was larger than the proxy copies (4 MiB), or could not be decoded. */
  omitted: z.optional(z.string()),
};

/** One recorded exchange: the file's whole content. Unknown fields are ignored (a later version may add some). */
export const RecordedExchangeSchema = /* @__PURE__ */ z.looseObject({
  bizmsg: z.literal(RECORDING_MARK),
  version: z.int(),
  /** Its place in the recording, from 1: identical requests are answered in this order. */
  seq: z.int(),
  /** When it was recorded, ISO 8601. */
  at: z.string(),
  variant: z.union([z.literal(1), z.literal(2)]),
  request: z.looseObject({
    method: z.string(),
    /** Below the base URL (`/contacts/7`), redacted. */
    path: z.string(),
    query: QuerySchema,
    ...BodyFields,
  }),
  response: z.looseObject({
    status: z.int(),
    /** The allowlisted headers only: content type, rate-limit headers, Retry-After. */
    headers: z.record(z.string(), z.string()),
    ...BodyFields,
  }),
});
/** One recorded exchange. */
export type RecordedExchange = z.infer<typeof RecordedExchangeSchema>;

/** A recorded request or answer's body fields. */
export type RecordedBody = Pick<RecordedExchange['request'], 'body' | 'text' | 'omitted'>;

/** The answer headers a recording keeps. */
export const RECORDED_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
]);

/** The file of exchange `seq`: its number first, so that names sort in recorded order (`000012-post-messages-send.json`). */
export function fileNameOf(seq: number, method: string, path: string): string {
  const slug = `${method}-${path}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
  return `${String(seq).padStart(6, '0')}-${slug}.json`;
}

/** The seq a recording's file name starts with, or undefined for any other file. */
export function seqOfFileName(name: string): number | undefined {
  const found = /^(\d{6,})-[a-z0-9-]*\.json$/.exec(name);
  return found === null ? undefined : Number(found[1]);
}
