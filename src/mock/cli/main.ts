#!/usr/bin/env node
// The bizmsg-mock bin: serves the mock over HTTP, sends one signed event (`emit`), or passes the
// real service on (`proxy`) and replays its recording (`replay`).
import { printable } from '../../shared/printable.js';
import { VERSION } from '../../shared/version.js';
import { CliUsageError, parseCliArgs, TRAFFIC_HELP, USAGE } from './args.js';
import { emitOnce } from './emit.js';
import { serve } from './serve.js';
import { serveProxy, serveReplay } from './traffic.js';

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2));
  if (args.command === 'help') console.log(args.about === undefined ? USAGE : `${USAGE}\n${TRAFFIC_HELP}`);
  else if (args.command === 'version') console.log(VERSION);
  else if (args.command === 'emit') process.exitCode = await emitOnce(args);
  else if (args.command === 'proxy') await serveProxy(args);
  else if (args.command === 'replay') await serveReplay(args);
  else await serve(args);
}

// What is said may hold text from the command line (an unknown flag) or a file: it is made inert.
main().catch((error: unknown) => {
  if (error instanceof CliUsageError) {
    console.error(`bizmsg-mock: ${printable(error.message)}`);
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  console.error(`bizmsg-mock: ${printable(error instanceof Error ? error.message : String(error))}`);
  process.exitCode = 1;
});
