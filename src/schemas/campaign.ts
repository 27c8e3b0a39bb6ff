// A campaign, as the service returns it (Variant 2).
import * as z from 'zod/mini';
import { IdSchema, maybe, openEnum } from './common.js';

/** Campaign states: the spec names only the completed one. */
export const CAMPAIGN_STATUSES = ['scheduled', 'sending', 'completed'] as const;
/** A campaign status. */
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A campaign as the service returns it: its id, and bizmsg's guess of the rest (contract/fields.ts). */
export const CampaignSchema = /* @__PURE__ */ z.looseObject({
  id: IdSchema,
  name: z.optional(z.string()),
  messaging_account_id: z.optional(z.int()),
  template_name: maybe(z.string()),
  segment_id: z.optional(z.int()),
  scheduled_at: maybe(z.string()),
  status: z.optional(openEnum(CAMPAIGN_STATUSES)),
  /** Messages sent so far. */
  sent_count: z.optional(z.int()),
  created_at: maybe(z.string()),
  completed_at: maybe(z.string()),
});
/** A campaign as the service returns it. */
export type Campaign = z.infer<typeof CampaignSchema>;
