import type { ResponseIssue } from './errors.js';

/** The fields of a zod issue we read; zod/mini ships no locale, so its own messages are terse. */
interface ZodIssueLike {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly expected?: unknown;
  readonly values?: readonly unknown[];
}

/** A zod issue with a message that says what was expected. */
export function describeIssue(issue: ZodIssueLike): ResponseIssue {
  return { path: issue.path, code: issue.code, message: explain(issue) };
}

function explain(issue: ZodIssueLike): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${String(issue.expected)}`;
    case 'invalid_union':
      return 'matches none of the accepted shapes';
    case 'invalid_value':
      return `expected one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return issue.message;
  }
}
