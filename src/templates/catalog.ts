// The template catalog: what an account declares of its templates (languages, and the names of the
// parameters of each component), as types and as a zod schema, and its check. defineTemplates, the
// mock (its `templates` option, a seed file) and the bulk CLI read one catalog the same way.
import * as z from 'zod/mini';
import { nonEmptyString } from '../schemas/common.js';
import { TEMPLATE_BUTTON_SUB_TYPES } from '../schemas/message-params.js';
import { fieldProblems, showValue } from '../shared/describe.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { isRecord } from '../shared/guards.js';

/** A button of a template that takes parameters: a url button (a suffix) or a quick reply (a payload). */
export interface TemplateButtonSpec {
  /** The button's kind: `url` (its parameter is the URL's suffix) or `quick_reply` (a payload). */
  readonly sub_type: (typeof TEMPLATE_BUTTON_SUB_TYPES)[number];
  /** Its parameters' names, in order. */
  readonly params: readonly string[];
}

/** One template as declared: its languages, and the names of its parameters per component, in `{{1}}, {{2}}` order. */
export interface TemplateSpec {
  /** The languages it exists in; left out: any language, which each send then names. */
  readonly languages?: readonly string[] | undefined;
  /** Its header's parameters' names, in order. */
  readonly header?: readonly string[] | undefined;
  /** Its body's parameters' names, in order. */
  readonly body?: readonly string[] | undefined;
  /** Its buttons in order (a button's `index` is its place here, from 0). */
  readonly buttons?: readonly TemplateButtonSpec[] | undefined;
}

/** The templates of an account, by name: what `defineTemplates` takes and `templates.catalog` gives. */
export type TemplateCatalog = { readonly [name: string]: TemplateSpec };

/** Why `name` cannot name a template (`catalog`) or a parameter (`language`), if it cannot. */
function reserved(name: string, kind: 'template' | 'parameter'): string | undefined {
  if (name === '__proto__') return 'is reserved';
  if (kind === 'template' && name === 'catalog') return 'is reserved: templates.catalog is the declaration itself';
  if (kind === 'parameter' && name === 'language') return 'is reserved: `language` names the language of a send';
  return undefined;
}

const ParamNames = /* @__PURE__ */ z.array(nonEmptyString());

/** One template as declared; a field it does not know (a typo such as `bdy`) is refused, not ignored. */
export const TemplateSpecSchema = /* @__PURE__ */ z
  .strictObject({
    languages: z.optional(z.array(nonEmptyString()).check(z.minLength(1))),
    header: z.optional(ParamNames),
    body: z.optional(ParamNames),
    buttons: z.optional(z.array(z.strictObject({ sub_type: z.enum(TEMPLATE_BUTTON_SUB_TYPES), params: ParamNames }))),
  })
  .check(z.superRefine(checkNames));

/** The catalog as JSON carries it (a seed file, the mock's state). */
export const TemplateCatalogSchema = /* @__PURE__ */ z
  .record(z.string(), TemplateSpecSchema)
  .check(z.superRefine(checkTemplateNames)) as z.ZodMiniType<TemplateCatalog>;

/** The parameters of `spec` in the order they are filled: header, body, then each button's. */
export function paramNamesOf(spec: TemplateSpec): string[] {
  return [...(spec.header ?? []), ...(spec.body ?? []), ...(spec.buttons ?? []).flatMap((button) => button.params)];
}

/**
 * `catalog` checked, as plain JSON (a deep copy, frozen); otherwise an InvalidArgumentError from
 * `caller` naming each field at fault: a name used twice in one template, a reserved name, a
 * `sub_type` other than url or quick_reply, a list that is not an array.
 */
export function checkCatalog(catalog: unknown, caller: string): TemplateCatalog {
  if (!isRecord(catalog))
    throw new InvalidArgumentError(
      `${caller} needs an object of templates by name ({ name: { languages?, header?, body?, buttons? } }), got ${showValue(catalog)}.`,
    );
  const result = TemplateCatalogSchema.safeParse(catalog, { reportInput: true });
  const problems = Object.entries(result.success ? {} : fieldProblems(result.error.issues, 'the catalog'));
  // zod leaves a "__proto__" key out of a record without a word.
  if (Object.hasOwn(catalog, '__proto__')) problems.push(['__proto__', [reserved('__proto__', 'template')!]]);
  const listed = problems.map(([field, texts]) => `${field} ${texts.join(', ')}`);
  if (listed.length > 0) throw new InvalidArgumentError(`${caller}: ${listed.join('; ')}.`);
  return deepFreeze(JSON.parse(JSON.stringify(result.data)) as TemplateCatalog);
}

/** No template name empty or reserved. */
function checkTemplateNames(catalog: Record<string, unknown>, ctx: z.core.$RefinementCtx): void {
  for (const name of Object.keys(catalog)) {
    if (name.trim() === '') ctx.addIssue({ code: 'custom', message: 'has a template whose name is empty', path: [] });
    else if (reserved(name, 'template') !== undefined)
      ctx.addIssue({ code: 'custom', message: reserved(name, 'template')!, path: [name] });
  }
}

/** Each parameter name once per template, none reserved; each language once. */
function checkNames(spec: z.infer<typeof TemplateSpecSchema>, ctx: z.core.$RefinementCtx): void {
  const seen = new Map<string, string>();
  const lists: Array<[path: PropertyKey[], names: readonly string[], where: string]> = [
    [['header'], spec.header ?? [], 'the header'],
    [['body'], spec.body ?? [], 'the body'],
    ...(spec.buttons ?? []).map((button, i): [PropertyKey[], readonly string[], string] => [
      ['buttons', i, 'params'],
      button.params,
      `button ${i}`,
    ]),
  ];
  for (const [path, names, where] of lists) {
    names.forEach((name, i) => {
      const problem =
        reserved(name, 'parameter') ??
        (seen.has(name)
          ? `repeats ${showValue(name)}, a parameter of ${seen.get(name)!}: a name is used once per template`
          : undefined);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, path: [...path, i], input: name });
      seen.set(name, seen.get(name) ?? where);
    });
  }
  (spec.languages ?? []).forEach((language, i, all) => {
    if (all.indexOf(language) !== i)
      ctx.addIssue({ code: 'custom', message: `lists ${showValue(language)} twice`, path: ['languages', i] });
  });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
