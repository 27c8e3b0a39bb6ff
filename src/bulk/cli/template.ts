// The template a CSV row is sent with: read from a catalog file (`--templates FILE`, the JSON that
// `defineTemplates(...).catalog` is), its parameter names (each a CSV column), and the content of
// one row, filled and checked as `defineTemplates` fills it.
import { readFile } from 'node:fs/promises';
import { checkCatalog, paramNamesOf, type TemplateSpec } from '../../templates/catalog.js';
import { fillTemplate, type FilledTemplate } from '../../templates/fill.js';
import { CliUsageError } from './args.js';

/** The template `name` in `language`, ready to fill from rows. */
export interface RowTemplate {
  readonly name: string;
  readonly language: string;
  /** Every parameter name, each a CSV column. */
  readonly parameters: readonly string[];
  /** The template content of a row; throws an InvalidArgumentError naming an empty parameter. */
  content(row: Readonly<Record<string, string>>): FilledTemplate;
}

/** The template to send, from the catalog file (none: a template without parameters, in any language). */
export async function loadTemplate(file: string | undefined, name: string, language: string): Promise<RowTemplate> {
  const spec = file === undefined ? {} : pick(await readCatalog(file), file, name);
  if (spec.languages !== undefined && !spec.languages.includes(language)) {
    throw new CliUsageError(
      `template ${JSON.stringify(name)} has no language ${JSON.stringify(language)} (it has ${spec.languages.join(', ')})`,
    );
  }
  const parameters = paramNamesOf(spec);
  return {
    name,
    language,
    parameters,
    content: (row) =>
      fillTemplate(name, spec, { language, ...Object.fromEntries(parameters.map((param) => [param, row[param]])) }),
  };
}

async function readCatalog(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliUsageError(`cannot read the catalog ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CliUsageError(
      `the catalog ${file} is not JSON: write it as defineTemplates takes it ({ "name": { "languages": [...], "body": [...] } })`,
    );
  }
}

/** The template `name` of a catalog checked as `defineTemplates` checks one. */
function pick(json: unknown, file: string, name: string): TemplateSpec {
  let catalog;
  try {
    catalog = checkCatalog(json, `the catalog ${file}`);
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (!Object.hasOwn(catalog, name))
    throw new CliUsageError(`the catalog ${file} has no template ${JSON.stringify(name)}`);
  return catalog[name]!;
}
