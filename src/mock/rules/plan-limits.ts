// PLAN_LIMIT_EXCEEDED: what each plan lets an account hold.
import { MockHttpError } from '../wire/http-error.js';
import type { MockPlan } from '../options.js';

type PlanLimit = 'maxContacts' | 'maxWebhookEndpoints' | 'maxMessages';

/** What each limit counts, as one and as many. */
const COUNTED: Record<PlanLimit, [one: string, many: string]> = {
  maxContacts: ['contact', 'contacts'],
  maxWebhookEndpoints: ['webhook endpoint', 'webhook endpoints'],
  maxMessages: ['message', 'messages'],
};

/** PLAN_LIMIT_EXCEEDED when adding one more would pass the plan's `limit`. */
export function checkPlanLimit(plan: MockPlan, limit: PlanLimit, current: number): void {
  const max = plan[limit];
  if (max !== undefined && current >= max) {
    const [one, many] = COUNTED[limit];
    throw new MockHttpError('PLAN_LIMIT_EXCEEDED', `The plan allows at most ${max} ${max === 1 ? one : many}.`, {
      [limit]: max,
    });
  }
}
