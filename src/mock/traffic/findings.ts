// The drift report of a proxy: each difference between the real service's traffic and the contract,
// once per operation, direction, kind and path, with how often and when it was seen. Bounded.
import * as z from 'zod/mini';

/** What differed: a body's shape, a status, an error code, a header. */
export const FINDING_KINDS = ['missing', 'unexpected', 'mismatched', 'status', 'error-code', 'header'] as const;

/** One difference, as `GET /_bizmsg/drift` serves it. Never a value of the traffic: paths, type names, statuses and codes. */
export const DriftFindingSchema = /* @__PURE__ */ z.object({
  /** The method and the spec's path template (`GET /contacts/{id}`). */
  operation: z.string(),
  /** The request (against what the endpoint takes) or the answer (against what bizmsg expects). */
  direction: z.enum(['request', 'response']),
  kind: z.enum(FINDING_KINDS),
  /** Where: a dotted path from the body's root (`data[].phone`), or a header's name. */
  path: z.optional(z.string()),
  /** What the contract says: a JSON type name, the statuses or codes listed, a header's form. */
  expected: z.optional(z.string()),
  /** What came: a JSON type name, the status, the code. */
  received: z.optional(z.string()),
  /** How many exchanges showed it. */
  count: z.int(),
  /** When it was first and last seen, ISO 8601. */
  firstSeen: z.string(),
  lastSeen: z.string(),
});
/** One difference between the real service's traffic and the contract. Never a value of the traffic. */
export interface DriftFinding {
  /** The method and the spec's path template (`GET /contacts/{id}`). */
  operation: string;
  /** The request (against what the endpoint takes) or the answer (against what bizmsg expects). */
  direction: 'request' | 'response';
  /** What differed: a body's shape, a status, an error code, a header. */
  kind: (typeof FINDING_KINDS)[number];
  /** Where: a dotted path from the body's root (`data[].phone`), or a header's name. */
  path?: string | undefined;
  /** What the contract says: a JSON type name, the statuses or codes listed, a header's form. */
  expected?: string | undefined;
  /** What came: a JSON type name, the status, the code. */
  received?: string | undefined;
  /** How many exchanges showed it. */
  count: number;
  /** When it was first seen, ISO 8601. */
  firstSeen: string;
  /** When it was last seen, ISO 8601. */
  lastSeen: string;
}

/** What `GET /_bizmsg/drift` answers. */
export const DriftReportSchema = /* @__PURE__ */ z.object({ findings: z.array(DriftFindingSchema) });
/** What `GET /_bizmsg/drift` answers: every finding, in the order first seen. */
export interface ProxyDriftReport {
  /** Every finding, in the order first seen. */
  findings: DriftFinding[];
}

/** A finding as one exchange shows it, before it is counted. */
export type Difference = Omit<DriftFinding, 'count' | 'firstSeen' | 'lastSeen'>;

/** How many findings a proxy keeps: past it, a new one is counted in `dropped` only (a hostile upstream can invent paths). */
export const MAX_FINDINGS = 1000;

/** The findings of one proxy, aggregated. */
export class DriftFindings {
  readonly #byKey = new Map<string, DriftFinding>();
  #dropped = 0;

  /**
   * Counts the differences of one exchange seen at `at`; returns those seen for the first time
   * (each is printed once).
   */
  add(differences: readonly Difference[], at: Date): DriftFinding[] {
    const time = at.toISOString();
    const fresh: DriftFinding[] = [];
    // One exchange counts each finding once, however often its body repeats it (`data[].phone` in every item).
    const keys = new Set<string>();
    for (const difference of differences) {
      const key = keyOf(difference);
      if (keys.has(key)) continue;
      keys.add(key);
      const known = this.#byKey.get(key);
      if (known !== undefined) {
        known.count += 1;
        known.lastSeen = time;
      } else if (this.#byKey.size >= MAX_FINDINGS) {
        this.#dropped += 1;
      } else {
        const finding = { ...difference, count: 1, firstSeen: time, lastSeen: time };
        this.#byKey.set(key, finding);
        fresh.push({ ...finding });
      }
    }
    return fresh;
  }

  /** Every finding kept, in the order first seen. */
  report(): ProxyDriftReport {
    return { findings: [...this.#byKey.values()].map((finding) => ({ ...finding })) };
  }

  /** How many new findings were not kept, the report being full. */
  get dropped(): number {
    return this.#dropped;
  }
}

function keyOf({ operation, direction, kind, path, expected, received }: Difference): string {
  return JSON.stringify([operation, direction, kind, path ?? null, expected ?? null, received ?? null]);
}

/** A finding as one line for people: what differed where, and what was expected. */
export function findingLine({ operation, direction, kind, path, expected, received }: Difference): string {
  const where = path === undefined ? '' : ` ${path}`;
  const what =
    expected === undefined && received === undefined
      ? ''
      : ` (expected ${expected ?? 'nothing'}, received ${received ?? 'nothing'})`;
  return `drift: ${operation} ${direction} ${kind}${where}${what}`;
}
