// Reading --seed-file: the options of createMockServer as JSON, checked field by field.
import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { SCOPES } from '../../contract/scopes.js';
import { nonEmptyString } from '../../schemas/common.js';
import { checkArguments, TemplatesInput } from '../calls/schemas.js';
import { SeedInput } from '../state/seed.js';
import type { MockServerOptions } from '../options.js';
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
  try {
    return checkArguments(OptionsFileInput, value, `--seed-file ${path}`);
  } catch (error) {
    throw new CliUsageError((error as Error).message.replace(/\.$/, ''));
  }
}
