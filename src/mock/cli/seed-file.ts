// Reading --seed-file: the options of createMockServer as JSON, checked field by field.
import { readFileSync } from 'node:fs';
import { checkArguments, OptionsFileInput } from '../control/schemas.js';
import type { MockServerOptions } from '../options.js';
import { CliUsageError } from './args.js';

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
  } catch (error) {
    throw new CliUsageError(`--seed-file ${path} is not JSON: ${(error as Error).message}`);
  }
  try {
    return checkArguments(OptionsFileInput, value, `--seed-file ${path}`);
  } catch (error) {
    throw new CliUsageError((error as Error).message.replace(/\.$/, ''));
  }
}
