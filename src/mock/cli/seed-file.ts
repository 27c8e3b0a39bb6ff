// Reading --seed-file: the options of createMockServer as JSON, checked field by field.
import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { SCOPES } from '../../contract/scopes.js';
import { nonEmptyString } from '../../schemas/common.js';
import { checkArguments, TemplatesInput } from '../calls/schemas.js';
import { SeedInput } from '../state/seed.js';
import type { MockServerOptions } from '../options.js';
import { cutShort } from '../../shared/describe.js';
import { printable } from '../../shared/printable.js';
import { CliUsageError } from './args.js';

/** The options of `createMockServer` as JSON: what `bizmsg-mock --seed-file` reads. */
export const OptionsFileInput = /* @__PURE__ */ z.strictObject({
  variant: z.optional(z.literal([1, 2])),
  keys: z.optional(
    z.array(
      z.strictObject({
        key: nonEmptyString(),
        scopes: z.optional(z.array(z.enum(SCOPES))),
        plan: z.optional(nonEmptyString()),
        revoked: z.optional(z.boolean()),
      }),
    ),
  ),
  plans: z.optional(
    z.record(
      z.string(),
      z.strictObject({
        rateLimit: z.optional(z.int()),
        window: z.optional(z.number()),
        maxContacts: z.optional(z.int()),
        maxWebhookEndpoints: z.optional(z.int()),
        maxMessages: z.optional(z.int()),
      }),
    ),
  ),
  templates: z.optional(TemplatesInput),
  seed: z.optional(z.union([z.int(), SeedInput])),
  webhookTimeout: z.optional(z.number()),
  history: z.optional(z.strictObject({ requests: z.optional(z.int()), deliveries: z.optional(z.int()) })),
});

/** The mock options in `path`; a file that cannot be read, is not JSON or holds a wrong field is a usage error naming it. */
export function readSeedFile(path: string): MockServerOptions {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliUsageError(`--seed-file ${path} cannot be read: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the start of the text, and a file given by mistake may hold a secret (a .env).
    throw new CliUsageError(
      `--seed-file ${path} is not JSON: it must hold the options of createMockServer as one JSON object (its text is not shown).`,
    );
  }
  const misplaced = unknownTopField(value);
  if (misplaced !== undefined) throw new CliUsageError(`--seed-file ${path}: ${misplaced}`);
  try {
    return checkArguments(OptionsFileInput, value, `--seed-file ${path}`);
  } catch (error) {
    throw new CliUsageError((error as Error).message.replace(/\.$/, ''));
  }
}

/** The first field at the top of the file that is not an option, said with the ones that are (and where it goes, if under `seed`). */
function unknownTopField(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const known = Object.keys(OptionsFileInput.shape);
  const field = Object.keys(value).find((key) => !known.includes(key));
  if (field === undefined) return undefined;
  const shown = printable(cutShort(field, 40));
  const under = Object.hasOwn(SeedInput.shape, field) ? `; ${shown} goes under seed: {"seed": {"${shown}": …}}` : '';
  return `${shown} is not a known field (the file's fields: ${known.join(', ')})${under}`;
}
