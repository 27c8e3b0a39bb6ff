// The body of a campaign creation (Variant 2).
import * as z from 'zod/mini';
import { nonEmptyString } from './common.js';

/** Body of a campaign creation; `scheduled_at` is an ISO 8601 UTC timestamp. */
export const CampaignCreateSchema = /* @__PURE__ */ z.object({
  name: nonEmptyString(),
  messaging_account_id: z.int(),
  template_name: nonEmptyString(),
  segment_id: z.int(),
  scheduled_at: z.iso.datetime(),
});
/** Body of a campaign creation. */
export type CampaignCreateParams = z.input<typeof CampaignCreateSchema>;
