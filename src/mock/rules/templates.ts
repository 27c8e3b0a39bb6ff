// The templates the mock knows, and a template send judged against them: its name and language in
// the catalog (else TEMPLATE_NOT_FOUND), and as many parameters per component as the catalog
// declares (else VALIDATION_ERROR naming the component). A template known by name only takes any.
import type { TemplateComponent, TemplateContent } from '../../schemas/message-params.js';
import { isRecord } from '../../shared/guards.js';
import type { TemplateCatalog, TemplateSpec } from '../../templates/catalog.js';
import { checkArguments, TemplatesInput } from '../calls/schemas.js';
import { DEFAULT_TEMPLATES } from '../options.js';
import { MockHttpError } from '../wire/http-error.js';
import { validationError } from './validate.js';

/** What the mock knows of each template: its declaration, or null for one known by name only. */
export type KnownTemplates = Readonly<Record<string, TemplateSpec | null>>;

/** What a component of a declared template takes: its parameters' names (and a button's kind). */
interface Expected {
  names: readonly string[];
  sub_type?: string;
}

/**
 * The `templates` option read: names, a catalog, or what `defineTemplates` returned (its
 * `catalog`); a bad one is an InvalidArgumentError naming each field at fault.
 */
export function readTemplates(option: unknown = DEFAULT_TEMPLATES): MockTemplates {
  const value = isRecord(option) && isRecord(option.catalog) ? option.catalog : option;
  return new MockTemplates(checkArguments(TemplatesInput, value, 'The `templates` option'));
}

/** The templates of the account the mock serves. */
export class MockTemplates {
  readonly #known: ReadonlyMap<string, TemplateSpec | null>;

  /** `templates`: names (any language, any parameters) or a catalog (checked already). */
  constructor(templates: readonly string[] | TemplateCatalog) {
    this.#known = new Map(
      Array.isArray(templates) ? templates.map((name) => [name, null]) : Object.entries(templates as TemplateCatalog),
    );
  }

  /** As `state()` shows them. */
  toJSON(): KnownTemplates {
    return Object.fromEntries(this.#known);
  }

  /** TEMPLATE_NOT_FOUND unless a template is called `name`; `field` is where the body names it. */
  checkName(name: string, field: string): void {
    if (!this.#known.has(name))
      throw new MockHttpError('TEMPLATE_NOT_FOUND', `Template "${name}" does not exist.`, {
        [field]: ['is not a template of this account'],
      });
  }

  /** The language a campaign sends `name` in: its first, or `en` where it lists none. */
  languageOf(name: string): string {
    return this.#known.get(name)?.languages?.[0] ?? 'en';
  }

  /**
   * TEMPLATE_NOT_FOUND unless the template and its language exist, VALIDATION_ERROR unless each
   * component carries as many parameters as the catalog declares; `at` is where the content sits
   * in the body (`content.` in Variant 2).
   */
  checkSend({ name, language, components }: TemplateContent, at: string): void {
    const sent = `Template "${name}" in language "${language}"`;
    if (!this.#known.has(name))
      throw new MockHttpError('TEMPLATE_NOT_FOUND', `${sent} does not exist.`, {
        [`${at}name`]: ['is not a template of this account'],
      });
    const spec = this.#known.get(name);
    if (spec === null || spec === undefined) return;
    const languages = spec.languages ?? [language];
    if (!languages.includes(language))
      throw new MockHttpError('TEMPLATE_NOT_FOUND', `${sent} does not exist (it has ${languages.join(', ')}).`, {
        [`${at}language`]: [`is not a language of template "${name}" (${languages.join(', ')})`],
      });
    const problems = componentProblems(spec, components);
    if (problems.length > 0)
      throw validationError(
        Object.fromEntries(problems.map(([component, problem]) => [`${at}components.${component}`, [problem]])),
      );
  }
}

/** Each component that does not fit the declaration, with what is wrong: `['body', 'takes 2 ...']`. */
function componentProblems(spec: TemplateSpec, components: readonly TemplateComponent[]): Array<[string, string]> {
  const expected = expectedComponents(spec);
  const problems: Array<[string, string]> = [];
  const seen = new Set<string>();
  for (const component of components) {
    const key = component.type === 'button' ? `button.${Number(component.index)}` : component.type;
    if (seen.has(key)) {
      problems.push([key, 'is sent more than once']);
      continue;
    }
    seen.add(key);
    const want = expected.get(key);
    if (component.type === 'button' && want === undefined && Number(component.index) >= (spec.buttons ?? []).length)
      problems.push([key, `is not a button of the template (it has ${(spec.buttons ?? []).length})`]);
    else if (component.type === 'button' && want?.sub_type !== undefined && component.sub_type !== want.sub_type)
      problems.push([key, `is a ${want.sub_type} button, got ${component.sub_type}`]);
    else if (component.parameters.length !== (want?.names.length ?? 0))
      problems.push([key, `${takes(want)}, got ${component.parameters.length}`]);
  }
  for (const [key, want] of expected) if (!seen.has(key)) problems.push([key, `${takes(want)}, got none`]);
  return problems;
}

/** The components a send of `spec` must carry: those with parameters, by key (`header`, `body`, `button.0`). */
function expectedComponents(spec: TemplateSpec): Map<string, Expected> {
  const expected = new Map<string, Expected>();
  if (spec.header?.length) expected.set('header', { names: spec.header });
  if (spec.body?.length) expected.set('body', { names: spec.body });
  spec.buttons?.forEach(({ sub_type, params }, index) => {
    if (params.length > 0) expected.set(`button.${index}`, { names: params, sub_type });
  });
  return expected;
}

function takes(want: Expected | undefined): string {
  if (want === undefined) return 'takes no parameters';
  const count = want.names.length;
  return `takes ${count} parameter${count === 1 ? '' : 's'} (${want.names.join(', ')})`;
}
