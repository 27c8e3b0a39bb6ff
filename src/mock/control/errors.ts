// What a refused control call answers over HTTP: the code of each status, and the JSON of the error.
import * as z from 'zod/mini';

/** The code of each status the control API refuses a call with (`{ error: { code } }`). */
export const CONTROL_ERROR_CODES = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  500: 'INTERNAL_ERROR',
  501: 'NOT_IMPLEMENTED',
} as const;

/** A status the control API refuses a call with. */
export type RefusedStatus = keyof typeof CONTROL_ERROR_CODES;

/** What a refused control call answers: `{ error: { code, message, details } }`. */
export const ControlErrorOutput = /* @__PURE__ */ z.object({
  error: z.object({
    code: z.enum(Object.values(CONTROL_ERROR_CODES)),
    message: z.string(),
    /** Each field at fault, with what is wrong with it. */
    details: z.record(z.string(), z.array(z.string())),
  }),
});
