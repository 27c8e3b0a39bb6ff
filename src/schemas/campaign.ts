// A campaign, as the service returns it (Variant 2).
import * as z from 'zod/mini';
import { expected, IdSchema, maybe, openEnum, type OpenEnum, int } from './common.js';

/** Campaign states: the spec names only the completed one. */
export const CAMPAIGN_STATUSES = ['scheduled', 'sending', 'completed'] as const;
/** A campaign status. */
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A campaign as the service returns it: its id, and bizmsg's guess of the rest (contract/fields.ts). */
export const CampaignSchema = /* @__PURE__ */ z.looseObject({
  id: IdSchema,
  name: expected(z.string()),
  messaging_account_id: expected(int()),
  template_name: expected(z.nullable(z.string())),
  segment_id: expected(int()),
  scheduled_at: expected(z.nullable(z.string())),
  status: expected(openEnum(CAMPAIGN_STATUSES)),
  /** Messages sent so far. */
  sent_count: expected(int()),
  created_at: expected(z.nullable(z.string())),
  completed_at: maybe(z.string()),
});
/** A campaign as the service returns it (Variant 2). */
export interface Campaign {
  /** The campaign's id (not shown by the spec: always there, as the method needs it). */
  id: string | number;
  /** The campaign's name (guessed: may be missing). */
  name?: string | undefined;
  /** The id of the messaging account that sends it (guessed: may be missing). */
  messaging_account_id?: number | undefined;
  /** The name of the template it sends (guessed: may be missing). */
  template_name?: string | null | undefined;
  /** The id of the segment of contacts it goes to (guessed: may be missing). */
  segment_id?: number | undefined;
  /** When it is to be sent, as the service wrote the time (guessed: may be missing). */
  scheduled_at?: string | null | undefined;
  /** Where it is: scheduled, sending or completed (guessed: may be missing). */
  status?: OpenEnum<CampaignStatus> | undefined;
  /** The number of messages sent so far (guessed: may be missing). */
  sent_count?: number | undefined;
  /** When it was created, as the service wrote the time (guessed: may be missing). */
  created_at?: string | null | undefined;
  /** When it completed, as the service wrote the time (guessed: may be missing). */
  completed_at?: string | null | undefined;
}
