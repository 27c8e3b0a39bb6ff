// The error of a delivery that is not a genuine, well-formed event.
import { BizMsgError } from '../shared/errors.js';

/**
 * Why a webhook delivery was not accepted: its signature (`missing_signature`, `malformed_signature`,
 * `mismatch`), a body that is no event (`malformed_payload`: not JSON, or without a string `event`
 * and an object `data`), or its age (`stale`). What `data` holds is never a reason.
 */
export type WebhookFailureReason =
  'missing_signature' | 'malformed_signature' | 'mismatch' | 'malformed_payload' | 'stale';

/** A webhook delivery failed verification or parsing; `reason` says which step. */
export class WebhookVerificationError extends BizMsgError {
  /** Machine-readable reason. */
  readonly reason: WebhookFailureReason;

  constructor(reason: WebhookFailureReason, message: string) {
    super(message);
    this.reason = reason;
  }

  override get name(): string {
    return 'WebhookVerificationError';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason };
  }
}
