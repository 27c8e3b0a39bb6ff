// A zod issue of a response body, as `ResponseValidationError.issues` holds it.
import { issueText, type ZodIssueLike } from '../../shared/describe.js';

/** One problem found while validating a response body. */
export interface ResponseIssue {
  /** Where in the payload, e.g. `['data', 0, 'phone']`. */
  readonly path: readonly PropertyKey[];
  /** zod's issue code, e.g. `invalid_type`. */
  readonly code: string;
  /** What was expected there. */
  readonly message: string;
}

/** A zod issue with a message that says what was expected. */
export function describeIssue(issue: ZodIssueLike): ResponseIssue {
  return { path: issue.path, code: issue.code, message: issueText(issue) };
}
