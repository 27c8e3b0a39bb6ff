// Reading the payload of a successful answer as a tolerant reader: a guessed field that is missing
// or of another type does not fail the call (it is left out), and what differs is reported.
import type { ZodMiniType } from 'zod/mini';
import { compareShape, type Mismatch } from '../../contract/drift.js';
import { sendDrift, type DriftHandler } from '../../contract/drift-report.js';
import { RECORD_MARKS } from '../../contract/fields.js';
import type { ZodIssueLike } from '../../shared/describe.js';

/** What one answer's parts differ in, gathered for one report; undefined when nobody listens. */
export interface Findings {
  readonly missing: string[];
  readonly unexpected: string[];
  readonly mismatched: Mismatch[];
}

/** The value read, or the issues of the parse that failed (the promise of the method is broken). */
export type Read<T> = { ok: true; value: T } | { ok: false; issues: readonly ZodIssueLike[] };

/**
 * Reads `value` (found at `root` in the body) with `schema`. With `findings`, it is compared with
 * its shape first (its drift added to them) and parsed without the optional fields of another
 * type; without, it is parsed as it is, and compared only when that fails.
 */
export function readPart<T>(schema: ZodMiniType<T>, value: unknown, root: string, findings?: Findings): Read<T> {
  const compare = () => compareShape(schema, value, { root, marks: RECORD_MARKS });
  const reading = findings === undefined ? undefined : compare();
  if (reading !== undefined) {
    findings!.missing.push(...reading.missing);
    findings!.unexpected.push(...reading.unexpected);
    findings!.mismatched.push(...reading.mismatched);
  }
  let result = schema.safeParse(reading === undefined ? value : reading.value, { reportInput: true });
  if (!result.success && reading === undefined) {
    const kept = compare().value;
    if (kept !== value) result = schema.safeParse(kept, { reportInput: true });
  }
  return result.success ? { ok: true, value: result.data } : { ok: false, issues: result.error.issues };
}

/** Hands what an answer to `operation` differed in to `handler`, when it differed at all. */
export function reportFindings(
  operation: string,
  findings: Findings,
  handler: DriftHandler,
  failed: (error: unknown) => void,
): void {
  sendDrift({ source: 'response', operation, ...findings }, handler, failed);
}
