// One template filled with its parameters by name: the values checked (none missing, unknown, empty,
// and the language one of the template's), then the components in the common chat-API shape.
import type { TemplateComponent, TemplateParameter } from '../schemas/message-params.js';
import { describeValue, showValue } from '../shared/describe.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { isRecord } from '../shared/guards.js';
import { paramNamesOf, type TemplateButtonSpec, type TemplateSpec } from './catalog.js';

/** A template send's content: what `sendTemplate` takes beside the addressing. */
export interface FilledTemplate<N extends string = string, L extends string = string> {
  /** The template's name. */
  name: N;
  /** The language sent, as `en_US`. */
  language: L;
  /** The template's components with their parameters, in the chat-API shape a send carries. */
  components: TemplateComponent[];
}

/**
 * `name` of the catalog filled with `params` (parameter name -> text or number, plus `language`),
 * or an InvalidArgumentError naming the template and every parameter at fault.
 */
export function fillTemplate(name: string, spec: TemplateSpec, params: unknown): FilledTemplate {
  const caller = `templates.${name}(params)`;
  if (params !== undefined && !isRecord(params))
    throw new InvalidArgumentError(`${caller} needs an object of parameters, got ${describeValue(params)}.`);
  const given: Record<string, unknown> = params ?? {};
  const expected = paramNamesOf(spec);
  const problems = [
    ...languageProblems(spec, given),
    ...expected.flatMap((param) => valueProblems(param, given)),
    ...Object.keys(given)
      .filter((key) => key !== 'language' && !expected.includes(key))
      .map((key) => `${showValue(key)} is not a parameter of ${name} (${takes(expected)})`),
  ];
  if (problems.length > 0) throw new InvalidArgumentError(`${caller}: ${problems.join('; ')}.`);
  const text = (param: string) => String(given[param]);
  return {
    name,
    language: (given.language as string | undefined) ?? spec.languages![0]!,
    components: [
      ...textComponent('header', spec.header, text),
      ...textComponent('body', spec.body, text),
      ...(spec.buttons ?? []).flatMap((button, index) => buttonComponent(button, index, text)),
    ],
  };
}

/** `language` given and listed, or left out where the template has exactly one. */
function languageProblems(spec: TemplateSpec, given: Record<string, unknown>): string[] {
  const { languages } = spec;
  const language = given.language;
  const listed = languages === undefined ? '' : ` (${languages.join(', ')})`;
  if (language === undefined)
    return languages?.length === 1 ? [] : [`language is required, the template has no single language${listed}`];
  if (typeof language !== 'string' || language.trim() === '')
    return [`language must be a language code${listed}, got ${showValue(language)}`];
  if (languages !== undefined && !languages.includes(language))
    return [`language ${showValue(language)} is not one of the template's languages${listed}`];
  return [];
}

/** A parameter's value: present, a string with something in it or a finite number. */
function valueProblems(param: string, given: Record<string, unknown>): string[] {
  const value = Object.hasOwn(given, param) ? given[param] : undefined;
  const what = `parameter ${showValue(param)}`;
  if (value === undefined) return [`${what} is missing`];
  if (typeof value === 'string') return value.trim() === '' ? [`${what} is empty`] : [];
  if (typeof value === 'number' && Number.isFinite(value)) return [];
  return [`${what} must be a string or a finite number, got ${showValue(value)}`];
}

function takes(expected: readonly string[]): string {
  return expected.length === 0 ? 'it takes none' : `it takes ${expected.join(', ')}`;
}

function textComponent(
  type: 'header' | 'body',
  names: readonly string[] | undefined,
  text: (param: string) => string,
): TemplateComponent[] {
  if (names === undefined || names.length === 0) return [];
  return [{ type, parameters: names.map((param) => ({ type: 'text', text: text(param) })) }];
}

function buttonComponent(
  button: TemplateButtonSpec,
  index: number,
  text: (param: string) => string,
): TemplateComponent[] {
  if (button.params.length === 0) return [];
  const parameter = (param: string): TemplateParameter =>
    button.sub_type === 'url' ? { type: 'text', text: text(param) } : { type: 'payload', payload: text(param) };
  return [
    { type: 'button', sub_type: button.sub_type, index: String(index), parameters: button.params.map(parameter) },
  ];
}
