// Routes of webhook endpoints (Variant 2), and the registration the control API shares.
import { VARIANT2_ENDPOINTS } from '../../contract/endpoints.js';
import { WebhookEndpointCreateSchema } from '../../schemas/webhook-endpoint-params.js';
import type { MockContext } from '../context.js';
import { parseBody } from '../rules/json-body.js';
import { checkPlanLimit } from '../rules/plan-limits.js';
import type { Route } from '../rules/router.js';
import type { StoredWebhookEndpoint } from '../state/records.js';
import { pageOf, readPagination, validationError } from '../rules/validate.js';

/** Webhook endpoint registration (Variant 2). */
export function webhookRoutes(ctx: MockContext): Route[] {
  return [
    {
      endpoint: VARIANT2_ENDPOINTS.listWebhooks,
      handle: ({ query }) => {
        const { page, perPage } = readPagination(query);
        const { data, meta } = pageOf(ctx.store().webhookEndpoints, page, perPage);
        return { data: data.map(endpointView), meta };
      },
    },
    {
      endpoint: VARIANT2_ENDPOINTS.createWebhook,
      handle: async ({ request, plan }) => {
        const body = await parseBody(request, WebhookEndpointCreateSchema);
        const problem = ctx.ownServer.problemWith(body.url);
        if (problem !== undefined) throw validationError({ url: [problem] });
        const store = ctx.store();
        checkPlanLimit(plan, 'maxWebhookEndpoints', store.webhookEndpoints.filter((e) => e.status === 'active').length);
        return { data: endpointView(registerEndpoint(ctx, body)) };
      },
    },
  ];
}

/** Adds an active endpoint (also used by the mock's control API, which Variant 1 needs). */
export function registerEndpoint(
  ctx: MockContext,
  body: Pick<StoredWebhookEndpoint, 'url' | 'events' | 'secret'>,
): StoredWebhookEndpoint {
  const store = ctx.store();
  const endpoint: StoredWebhookEndpoint = {
    id: store.nextId('webhook'),
    ...body,
    // A kind listed twice is one subscription.
    events: [...new Set(body.events)],
    status: 'active',
    created_at: ctx.clock.date().toISOString(),
  };
  store.webhookEndpoints.push(endpoint);
  return endpoint;
}

/** An endpoint as the API shows it: never its secret. */
function endpointView({ secret: _secret, ...endpoint }: StoredWebhookEndpoint) {
  return endpoint;
}
