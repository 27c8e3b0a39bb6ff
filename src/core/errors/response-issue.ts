import type { ResponseIssue } from './classes.js';

/** The fields of a zod issue read here; zod/mini ships no locale, so its own messages are terse. */
interface ZodIssueLike {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  /** Present only when the value was parsed with `reportInput: true`. */
  readonly input?: unknown;
  readonly expected?: unknown;
  readonly origin?: unknown;
  readonly format?: unknown;
  readonly values?: readonly unknown[];
  readonly options?: readonly unknown[];
  readonly minimum?: unknown;
}

/** A zod issue with a message that says what was expected. */
export function describeIssue(issue: ZodIssueLike): ResponseIssue {
  return { path: issue.path, code: issue.code, message: issueText(issue) };
}

/**
 * What a zod issue asks of the value at its path, in words ("is required", "must be a string",
 * "must be one of open, closed"): the one wording of the clients' response issues, the webhook
 * parser's errors and the mock's VALIDATION_ERROR details.
 */
export function issueText(issue: ZodIssueLike): string {
  switch (issue.code) {
    case 'invalid_type':
      // A JSON value has no undefined: an undefined input reported means the field was absent.
      return 'input' in issue && issue.input === undefined
        ? 'is required'
        : `must be ${article(String(issue.expected))}`;
    case 'too_small':
      return tooSmall(issue);
    case 'invalid_format':
      return `must be a valid ${issue.format === 'datetime' ? 'ISO 8601 UTC timestamp' : String(issue.format)}`;
    case 'invalid_value':
      return `must be one of ${(issue.values ?? []).join(', ')}`;
    case 'invalid_union':
      // A discriminated union names its discriminator's values; another union has nothing shorter to say.
      return issue.options === undefined
        ? 'must match one of the accepted shapes'
        : `must be one of ${issue.options.join(', ')}`;
    case 'custom':
      return issue.message;
    default:
      return 'is invalid';
  }
}

function tooSmall(issue: ZodIssueLike): string {
  if (issue.origin === 'number' || issue.origin === 'int') return `must be at least ${String(issue.minimum)}`;
  if (issue.minimum === 1) return 'must not be empty';
  return `must have at least ${String(issue.minimum)} ${issue.origin === 'string' ? 'characters' : 'items'}`;
}

function article(type: string): string {
  if (type === 'int') return 'an integer';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
