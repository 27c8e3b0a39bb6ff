// The template a send carries, for the errors of its answer: TEMPLATE_NOT_FOUND names what was sent.
import type { SentTemplate } from '../core/call/call.js';
import { isRecord } from '../shared/guards.js';

/** The name and language of template `content` (`{ name, language, ... }`), if it is an object. */
export function sentTemplate(content: unknown): SentTemplate | undefined {
  return isRecord(content) ? { name: content.name, language: content.language } : undefined;
}
