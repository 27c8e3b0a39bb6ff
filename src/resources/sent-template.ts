// The template a send carries, for the errors of its answer: TEMPLATE_NOT_FOUND names what was
// sent. The clients plug this into core's `completeMessage` (core knows no template).
import type { MessageCompleter } from '../core/wire/call.js';
import { showValue } from '../shared/describe.js';
import { isRecord } from '../shared/guards.js';

/** The template a call sends, as the errors of its answer name it. */
interface SentTemplate {
  readonly name: unknown;
  readonly language?: unknown;
}

/** The `completeMessage` of a send of template `content` (`{ name, language, ... }`), if it is an object. */
export function namingTemplateOf(content: unknown): MessageCompleter | undefined {
  return isRecord(content) ? namingTemplate({ name: content.name, language: content.language }) : undefined;
}

/**
 * The `completeMessage` of a call that sends `template`: the message of a TEMPLATE_NOT_FOUND answer
 * names the template and language sent, unless it already does.
 */
export function namingTemplate(template: SentTemplate): MessageCompleter {
  return (code, message) => {
    if (code !== 'TEMPLATE_NOT_FOUND') return message;
    const named = [
      showValue(template.name),
      ...(template.language === undefined ? [] : [showValue(template.language)]),
    ];
    if (named.every((value) => message.includes(value))) return message;
    const language = named[1] === undefined ? '' : ` in language ${named[1]}`;
    return `${message.replace(/\.$/, '')} (sent: template ${named[0]}${language}).`;
  };
}
