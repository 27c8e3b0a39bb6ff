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
/** Body of an automation trigger. */
export type AutomationTriggerParams = z.input<typeof AutomationTriggerSchema>;
