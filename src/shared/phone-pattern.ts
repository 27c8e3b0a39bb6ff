// A phone number as the service takes it on the wire, for the mock that checks it and the
// OpenAPI documents that state it (the clients write numbers with shared/phone.ts).
import { PHONE_DIGITS } from './phone.js';

/**
 * The digits of an international number, with an optional leading `+` (the spec: "the forms with
 * and without a leading `+` both occur").
 */
export const PHONE_PATTERN = /* @__PURE__ */ new RegExp(
  `^\\+?[1-9]\\d{${PHONE_DIGITS.min - 1},${PHONE_DIGITS.max - 1}}$`,
);

/** `PHONE_PATTERN` in words, after "an international number:", for the messages and documents that state it. */
export const PHONE_PATTERN_TEXT = `${PHONE_DIGITS.min} to ${PHONE_DIGITS.max} digits, not starting with 0, with or without a leading +`;
