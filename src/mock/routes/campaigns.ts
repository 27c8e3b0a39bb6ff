// Routes of campaigns (Variant 2): list, create, and the run at scheduled_at.
import { VARIANT2_ENDPOINTS } from '../../contract/endpoints.js';
import { CampaignCreateSchema } from '../../schemas/campaign-params.js';
import type { MockContext } from '../context.js';
import { parseBody } from '../rules/json-body.js';
import { SEGMENTS } from '../options.js';
import type { Route } from '../rules/router.js';
import { campaignEventData } from '../state/event-data.js';
import type { StoredCampaign } from '../state/records.js';
import { pageOf, readPagination, validationError } from '../rules/validate.js';
import { checkMessagingAccount } from './messages.js';

/** Campaign endpoints (Variant 2). */
export function campaignRoutes(ctx: MockContext): Route[] {
  return [
    {
      endpoint: VARIANT2_ENDPOINTS.listCampaigns,
      handle: ({ query }) => {
        const { page, perPage } = readPagination(query);
        return pageOf(ctx.store().campaigns, page, perPage);
      },
    },
    {
      endpoint: VARIANT2_ENDPOINTS.createCampaign,
      handle: async ({ request }) => {
        const body = await parseBody(request, CampaignCreateSchema);
        if (!SEGMENTS.some((s) => s.id === body.segment_id))
          throw validationError({ segment_id: ['is not a segment of this account'] });
        checkMessagingAccount(body.messaging_account_id);
        ctx.templates.checkName(body.template_name, 'template_name');
        const store = ctx.store();
        const campaign: StoredCampaign = {
          id: store.nextId('campaign'),
          ...body,
          status: 'scheduled',
          sent_count: 0,
          created_at: ctx.clock.date().toISOString(),
        };
        store.campaigns.push(campaign);
        ctx.clock.schedule(Date.parse(body.scheduled_at), () => run(ctx, campaign), `campaign ${campaign.id} runs`);
        return { data: campaign };
      },
    },
  ];
}

/** Sends the campaign's template to every contact of its segment, then completes it. */
function run(ctx: MockContext, campaign: StoredCampaign): void {
  if (!ctx.store().campaigns.includes(campaign)) return; // the store was reset
  campaign.status = 'sending';
  const segment = SEGMENTS.find((s) => s.id === campaign.segment_id)!;
  for (const contact of ctx.store().contacts) {
    if (segment.tag !== undefined && !contact.tags.includes(segment.tag)) continue;
    try {
      ctx.messaging.send({
        to: contact.phone,
        type: 'template',
        content: {
          name: campaign.template_name,
          language: ctx.templates.languageOf(campaign.template_name),
          components: [],
        },
        messaging_account_id: campaign.messaging_account_id,
        campaign_id: campaign.id,
      });
      campaign.sent_count += 1;
    } catch {
      // A number the channel rejects is skipped, as the service would.
    }
  }
  campaign.status = 'completed';
  campaign.completed_at = ctx.clock.date().toISOString();
  ctx.events.emit('campaign.completed', campaignEventData(campaign));
}
