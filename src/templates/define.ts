// defineTemplates: the account's templates declared once, each a typed function from its
// parameters by name to the content of a template send.
import { checkCatalog, type TemplateButtonSpec, type TemplateCatalog, type TemplateSpec } from './catalog.js';
import { fillTemplate, type FilledTemplate } from './fill.js';

/** A value filled into a template: a text, or a number written as text. */
export type TemplateValue = string | number;

/** The elements of a list the spec may leave out. */
type ItemOf<L> = L extends readonly (infer T)[] ? T : never;
/** The parameter names of the buttons of a spec. */
type ButtonParams<B> = B extends readonly TemplateButtonSpec[] ? ItemOf<B[number]['params']> : never;
/** Every parameter name of a template spec. */
type ParamNamesOf<S extends TemplateSpec> = ItemOf<S['header']> | ItemOf<S['body']> | ButtonParams<S['buttons']>;

/** The language a send of `S` may name: one it lists, or any where it lists none. */
export type TemplateLanguageOf<S extends TemplateSpec> = S extends { languages: readonly (infer L extends string)[] }
  ? L
  : string;

/** `language` among the parameters: optional where the template has exactly one, else required. */
type LanguageParam<S extends TemplateSpec> = S extends { languages: readonly [string] }
  ? {
      /** The language to send, one of the template's (optional: it has only one). */
      language?: TemplateLanguageOf<S>;
    }
  : {
      /** The language to send, one of the template's. */
      language: TemplateLanguageOf<S>;
    };

/** What `templates.<name>(params)` takes: each parameter by name, and `language`. */
export type TemplateParams<S extends TemplateSpec> = Simplify<
  { [K in ParamNamesOf<S>]: TemplateValue } & LanguageParam<S>
>;

/** An intersection shown as one object type. */
type Simplify<T> = { [K in keyof T]: T[K] };

/** No parameter at all: what a template without parameters and with one language takes. */
type NoParams = Record<never, never>;

/** One declared template: a function from its parameters to the content of a send. */
export type TemplateFunction<N extends string, S extends TemplateSpec> =
  NoParams extends TemplateParams<S>
    ? (params?: TemplateParams<S>) => FilledTemplate<N, TemplateLanguageOf<S>>
    : (params: TemplateParams<S>) => FilledTemplate<N, TemplateLanguageOf<S>>;

/** What `defineTemplates(catalog)` returns: a function per template, and `catalog`, the declaration as JSON. */
export type Templates<C extends TemplateCatalog> = {
  readonly [N in keyof C & string]: TemplateFunction<N, C[N]>;
} & {
  /** The declaration as plain JSON (frozen): what the mock takes as its `templates` option. */
  readonly catalog: C;
};

/**
 * Declares the account's templates once: each entry names its `languages` and the parameters of its
 * `header`, `body` and `buttons` (`{ sub_type: 'url' | 'quick_reply', params }`), in `{{1}}, {{2}}`
 * order. `templates.<name>(params)` gives `{ name, language, components }` for `sendTemplate`; a
 * missing, unknown or empty parameter or an unlisted language is a compile error and, at run time,
 * an `InvalidArgumentError` naming the template and the parameter. `language` may be left out where
 * the template has exactly one.
 *
 * @example
 * ```ts
 * const templates = defineTemplates({
 *   order_update: { languages: ['en', 'de'], body: ['name', 'order_id'] },
 *   welcome: { languages: ['en'] },
 * });
 * await client.messages.sendTemplate({ to: '+4915112345678', messaging_account_id: 1,
 *   ...templates.order_update({ language: 'de', name: 'Ada', order_id: 'A-17' }) });
 * ```
 */
export function defineTemplates<const C extends TemplateCatalog>(
  catalog: C & { readonly catalog?: never },
): Templates<C> {
  const checked = checkCatalog(catalog, 'defineTemplates(catalog)');
  const functions = Object.entries(checked).map(([name, spec]) => [
    name,
    (params?: unknown) => fillTemplate(name, spec, params),
  ]);
  return Object.freeze(Object.fromEntries([...functions, ['catalog', checked]])) as Templates<C>;
}
