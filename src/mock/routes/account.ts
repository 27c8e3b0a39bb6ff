// Routes of GET /account/me (both variants) and POST /automations/trigger (Variant 1).
import { VARIANT1_ENDPOINTS, VARIANT2_ENDPOINTS } from '../../contract/endpoints.js';
import { AutomationTriggerSchema } from '../../schemas/automation-params.js';
import type { MockContext } from '../context.js';
import { notFound } from '../wire/http-error.js';
import { parseBody } from '../rules/json-body.js';
import { AUTOMATIONS } from '../options.js';
import type { Route } from '../rules/router.js';
import { ACCOUNT } from '../state/store.js';

/** `GET /account/me` (both variants) and `POST /automations/trigger` (Variant 1). */
export function accountRoutes(ctx: MockContext): Route[] {
  const routes: Route[] = [
    {
      endpoint: (ctx.variant === 1 ? VARIANT1_ENDPOINTS : VARIANT2_ENDPOINTS).getAccount,
      // Written out, not spread: JSON.stringify walks an object made by spreading several times slower.
      handle: ({ key }) => ({
        data: { id: ACCOUNT.id, name: ACCOUNT.name, email: ACCOUNT.email, plan: key.plan, scopes: key.scopes },
      }),
    },
  ];
  if (ctx.variant === 1) {
    routes.push({
      endpoint: VARIANT1_ENDPOINTS.triggerAutomation,
      handle: async ({ request }) => {
        const body = await parseBody(request, AutomationTriggerSchema);
        if (!(AUTOMATIONS as readonly (string | number)[]).includes(body.automation_id))
          throw notFound('Automation', String(body.automation_id));
        const store = ctx.store();
        const run = {
          id: `run_${store.automationRuns.length + 1}`,
          automation_id: body.automation_id,
          at: ctx.clock.now(),
        };
        store.automationRuns.push(run);
        return { data: { id: run.id, automation_id: run.automation_id, status: 'started' } };
      },
    });
  }
  return routes;
}
