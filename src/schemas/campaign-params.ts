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
/** Body of a campaign creation (`campaigns.create`, Variant 2). */
export interface CampaignCreateParams {
  /** The campaign's name, not empty (shown in the spec). */
  name: string;
  /** Id of the messaging account the campaign sends from, an integer (shown in the spec). */
  messaging_account_id: number;
  /** Name of the approved template each message uses, not empty (shown in the spec). */
  template_name: string;
  /** Id of the contact segment the campaign goes to, an integer (shown in the spec). */
  segment_id: number;
  /** When the campaign starts, an ISO 8601 UTC timestamp (`2026-01-31T09:00:00Z`; shown in the spec). */
  scheduled_at: string;
}
