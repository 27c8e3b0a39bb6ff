// A campaign, as the service returns it (Variant 2).
import * as z from 'zod/mini';
import { expected, IdSchema, maybe, openEnum } from './common.js';

/** Campaign states: the spec names only the completed one. */
export const CAMPAIGN_STATUSES = ['scheduled', 'sending', 'completed'] as const;
/** A campaign status. */
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A campaign as the service returns it: its id, and bizmsg's guess of the rest (contract/fields.ts). */
export const CampaignSchema = /* @__PURE__ */ z.looseObject({
  id: IdSchema,
  name: expected(z.string()),
  messaging_account_id: expected(z.int()),
  template_name: expected(z.nullable(z.string())),
  segment_id: expected(z.int()),
  scheduled_at: expected(z.nullable(z.string())),
  status: expected(openEnum(CAMPAIGN_STATUSES)),
  /** Messages sent so far. */
  sent_count: expected(z.int()),
  created_at: expected(z.nullable(z.string())),
  completed_at: maybe(z.string()),
});
/** A campaign as the service returns it. */
export type Campaign = z.infer<typeof CampaignSchema>;
