// Page sizes and request body limits (decided by bizmsg: the spec does not show them).
/** Largest `per_page`, and the page size when none is asked for (the spec does not show them). */
export const PAGE_SIZE = { max: 100, default: 20 } as const;

/**
 * Limits of request bodies: larger gets 413 PAYLOAD_TOO_LARGE, nested deeper (the body object
 * is level 1) a VALIDATION_ERROR naming the field.
 */
export const BODY_LIMITS = { maxBytes: 1_048_576, maxDepth: 32 } as const;
