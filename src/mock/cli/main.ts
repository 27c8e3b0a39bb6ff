#!/usr/bin/env node
// The bizmsg-mock bin: serves the mock over HTTP, or sends one signed event (`emit`).
import { CliUsageError, parseCliArgs, USAGE } from './args.js';
import { emitOnce } from './emit.js';
import { serve } from './serve.js';

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2));
  if (args.command === 'help') console.log(USAGE);
  else if (args.command === 'emit') process.exitCode = await emitOnce(args);
  else await serve(args);
}

main().catch((error: unknown) => {
  if (error instanceof CliUsageError) {
    console.error(`bizmsg-mock: ${error.message}`);
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  console.error(`bizmsg-mock: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
