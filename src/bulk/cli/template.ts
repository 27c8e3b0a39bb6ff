// The template a CSV row is sent with: its parameter names from a catalog (`--templates FILE`, the
// shape `defineTemplates` declares: { name: { languages, header?, body?, buttons? } }), and the
// template content of one row. (When defineTemplates is in the package, this reads its catalog.)
import { readFile } from 'node:fs/promises';
import { CliUsageError } from './args.js';

/** One template of a catalog: languages, and parameter names per component in `{{1}}, {{2}}` order. */
export interface CatalogTemplate {
  readonly languages: readonly string[];
  readonly header?: readonly string[];
  readonly body?: readonly string[];
  readonly buttons?: ReadonlyArray<{ readonly sub_type: 'url' | 'quick_reply'; readonly params: readonly string[] }>;
}

/** The template `name` in `language`, ready to fill from rows. */
export interface RowTemplate {
  readonly name: string;
  readonly language: string;
  /** Every parameter name, each a CSV column. */
  readonly parameters: readonly string[];
  /** The template content of a row: `{ name, language, components }`; throws on an empty value. */
  content(row: Readonly<Record<string, string>>): { name: string; language: string; components: unknown[] };
}

/** The template to send, from the catalog file (none: a template without parameters). */
export async function loadTemplate(file: string | undefined, name: string, language: string): Promise<RowTemplate> {
  const entry = file === undefined ? { languages: [language] } : pick(await readCatalog(file), file, name);
  if (!entry.languages.includes(language)) {
    throw new CliUsageError(
      `template ${JSON.stringify(name)} has no language ${JSON.stringify(language)} (it has ${entry.languages.join(', ')})`,
    );
  }
  const buttons = entry.buttons ?? [];
  const parameters = [...(entry.header ?? []), ...(entry.body ?? []), ...buttons.flatMap((b) => b.params)];
  return {
    name,
    language,
    parameters,
    content(row) {
      const texts = (names: readonly string[]) =>
        names.map((param) => {
          const text = row[param];
          if (text === undefined || text === '') throw new Error(`template ${name}: the parameter ${param} is empty`);
          return { type: 'text', text };
        });
      const components: unknown[] = [];
      if (entry.header?.length) components.push({ type: 'header', parameters: texts(entry.header) });
      if (entry.body?.length) components.push({ type: 'body', parameters: texts(entry.body) });
      buttons.forEach((button, index) =>
        components.push({
          type: 'button',
          sub_type: button.sub_type,
          index: String(index),
          parameters: texts(button.params),
        }),
      );
      return { name, language, components };
    },
  };
}

async function readCatalog(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliUsageError(`cannot read the catalog ${file}: ${(error as Error).message}`);
  }
  try {
    const catalog: unknown = JSON.parse(text);
    if (typeof catalog === 'object' && catalog !== null && !Array.isArray(catalog))
      return catalog as Record<string, unknown>;
  } catch {
    // Worded below, as for JSON that is not an object.
  }
  throw new CliUsageError(
    `the catalog ${file} is not a JSON object of templates ({ "name": { "languages": [...], "body": [...] } })`,
  );
}

function pick(catalog: Record<string, unknown>, file: string, name: string): CatalogTemplate {
  const entry = Object.hasOwn(catalog, name) ? catalog[name] : undefined;
  if (entry === undefined) throw new CliUsageError(`the catalog ${file} has no template ${JSON.stringify(name)}`);
  const valid =
    typeof entry === 'object' &&
    entry !== null &&
    isNames((entry as CatalogTemplate).languages) &&
    ['header', 'body'].every(
      (part) =>
        (entry as Record<string, unknown>)[part] === undefined || isNames((entry as Record<string, unknown>)[part]),
    ) &&
    ((entry as CatalogTemplate).buttons === undefined ||
      (Array.isArray((entry as CatalogTemplate).buttons) &&
        (entry as CatalogTemplate).buttons!.every((b) => isNames(b?.params))));
  if (!valid)
    throw new CliUsageError(
      `the template ${JSON.stringify(name)} in ${file} needs "languages" and lists of parameter names`,
    );
  return entry as CatalogTemplate;
}

function isNames(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
