// The result of an automation trigger (Variant 1).
import * as z from 'zod/mini';
import { expected, IdSchema } from './common.js';

/** Result of an automation trigger (fields not shown in the spec; all kept). */
export const AutomationRunSchema = /* @__PURE__ */ z.looseObject({
  id: expected(IdSchema),
  automation_id: expected(IdSchema),
  status: expected(z.string()),
});
/** Result of an automation trigger. */
export type AutomationRun = z.infer<typeof AutomationRunSchema>;
