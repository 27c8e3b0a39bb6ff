// The result of an automation trigger (Variant 1).
import * as z from 'zod/mini';
import { expected, IdSchema } from './common.js';

/** Result of an automation trigger (fields not shown in the spec; all kept). */
export const AutomationExecutionSchema = /* @__PURE__ */ z.looseObject({
  id: expected(IdSchema),
  automation_id: expected(IdSchema),
  status: expected(z.string()),
});
/** Result of an automation trigger (Variant 1); the spec shows none of its fields. */
export interface AutomationExecution {
  /** The run's id (guessed: may be missing). */
  id?: string | number | undefined;
  /** The id of the automation triggered (guessed: may be missing). */
  automation_id?: string | number | undefined;
  /** The run's status, as the service words it (guessed: may be missing). */
  status?: string | undefined;
}
