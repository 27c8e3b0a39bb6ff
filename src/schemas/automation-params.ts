// The body of an automation trigger (Variant 1).
import * as z from 'zod/mini';
import { IdSchema, RecordSchema } from './common.js';

/** Body of `POST /automations/trigger` (not shown in the spec; extra fields pass through). */
export const AutomationTriggerSchema = /* @__PURE__ */ z.looseObject({
  automation_id: IdSchema,
  to: z.optional(z.string()),
  contact_id: z.optional(IdSchema),
  data: z.optional(RecordSchema),
});
/**
 * Body of an automation trigger (`automations.trigger`, Variant 1; the spec does not show it). The
 * service receives any other field too: pass one with a cast (`params as AutomationTriggerParams`).
 */
export interface AutomationTriggerParams {
  /** Id of the automation to run (not shown in the spec: bizmsg's guess). */
  automation_id: string | number;
  /** Phone number the automation runs for, international or in the client's `phoneFormat` (not shown in the spec: bizmsg's guess). */
  to?: string | undefined;
  /** Id of the contact the automation runs for (not shown in the spec: bizmsg's guess). */
  contact_id?: string | number | undefined;
  /** Free-form key/value pairs handed to the automation (not shown in the spec: bizmsg's guess). */
  data?: Record<string, unknown> | undefined;
}
