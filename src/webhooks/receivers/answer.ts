// What a receiver answers a delivery: status, headers and a JSON body.
import type { WebhookFailureReason } from '../errors.js';

/** Status and JSON body of the answer to a delivery. */
export interface WebhookAnswer {
  status: number;
  /** Headers beside `content-type` (`Retry-After` on a 503). */
  headers?: Record<string, string>;
  body:
    | { received: true; event?: string; ignored?: string; duplicate?: true }
    | {
        error: WebhookFailureReason | 'handler_failed' | 'payload_too_large' | 'unreadable_body' | 'in_progress';
        message: string;
      };
}
