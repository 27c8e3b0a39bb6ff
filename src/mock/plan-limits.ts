import { MockHttpError } from './http-error.js';
import type { MockPlan } from './options.js';

/** PLAN_LIMIT_EXCEEDED when adding one more would pass the plan's `limit`. */
export function checkPlanLimit(
  plan: MockPlan,
  limit: 'maxContacts' | 'maxWebhookEndpoints' | 'maxMessages',
  current: number,
): void {
  const max = plan[limit];
  if (max !== undefined && current >= max) {
    const what = { maxContacts: 'contacts', maxWebhookEndpoints: 'webhook endpoints', maxMessages: 'messages' }[limit];
    throw new MockHttpError(403, 'PLAN_LIMIT_EXCEEDED', `The plan allows at most ${max} ${what}.`, { [limit]: max });
  }
}
