// `bizmsg-mock proxy` and `bizmsg-mock replay`: the real service passed on and checked (and recorded),
// or a recording of it served offline, until stopped, printing what they do.
import { InvalidArgumentError } from '../../shared/errors.js';
import { findingLine } from '../traffic/findings.js';
import { startMockProxy, startMockReplay } from '../traffic/start.js';
import type { MockTrafficServer } from '../traffic/serve.js';
import { printable } from '../../shared/printable.js';
import { CliUsageError, type ProxyArgs, type ReplayArgs } from './args.js';
import { activityLine } from './lines.js';
import { listenProblem, stopOnExit } from './serve.js';

/** How long a stopping proxy may take to write the exchanges it answered, before it exits anyway. */
const PROXY_STOP_GRACE_MS = 30_000;

/** Passes the service on until SIGINT, SIGTERM or SIGHUP, printing each request and each new finding once. */
export async function serveProxy(args: ProxyArgs): Promise<void> {
  const proxy = await started(
    () =>
      startMockProxy({
        target: args.target,
        variant: args.variant,
        port: args.port,
        ...(args.record === undefined ? {} : { record: args.record }),
        ...(args.recordLimit === undefined ? {} : { recordLimit: args.recordLimit }),
        onRecordingFull: (limit) =>
          console.error(
            printable(
              `bizmsg-mock: the recording in ${args.record ?? ''} reached ${limit / 1_048_576} MB: later exchanges are counted (unrecorded), not written`,
            ),
          ),
        ...(args.redactionKey === undefined ? {} : { redactionKey: args.redactionKey }),
        onFinding: (finding) => console.log(printable(findingLine(finding))),
      }),
    args.port,
  );
  // Stopped, it first writes what it answered: up to the 64 MiB it holds for writing.
  stopOnExit(() => proxy.close(), PROXY_STOP_GRACE_MS);
  follow(proxy, args.quiet);
  const key =
    args.redactionKey !== undefined
      ? '--redaction-key'
      : process.env.BIZMSG_REDACTION_KEY !== undefined
        ? 'BIZMSG_REDACTION_KEY'
        : undefined;
  printBanner(proxy, [
    `Forwarding to ${args.target} (Variant ${args.variant}'s contract): the API key passes through and is written nowhere`,
    `Drift report: ${proxy.origin}/_bizmsg/drift (each new finding is printed once)`,
    ...(args.record === undefined
      ? []
      : [
          `Recording into ${args.record}, redacted (phone numbers under the redaction key of ${key ?? 'this session only: give --redaction-key or BIZMSG_REDACTION_KEY to replay with your own numbers'})`,
        ]),
  ]);
}

/** Serves a recording until SIGINT, SIGTERM or SIGHUP, printing each request and each miss. */
export async function serveReplay(args: ReplayArgs): Promise<void> {
  const replay = await started(
    () =>
      startMockReplay({
        recording: args.recording,
        port: args.port,
        ...(args.redactionKey === undefined ? {} : { redactionKey: args.redactionKey }),
        onMiss: (miss) =>
          console.log(
            printable(
              `no recording: ${miss.request} -> 501 NO_RECORDING (closest: ${miss.closest}; differs in ${miss.differing.join(', ')})`,
            ),
          ),
      }),
    args.port,
  );
  stopOnExit(() => replay.close());
  follow(replay, args.quiet);
  printBanner(replay, [`Replaying ${args.recording} offline (nothing is forwarded)`]);
}

/** Starts a server; what stops it is said as the command line's fault (the message names the flag or folder). */
async function started<T>(start: () => Promise<T>, port: number): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const unheard = listenProblem(error, port, '127.0.0.1');
    if (unheard !== undefined) throw unheard;
    if (InvalidArgumentError.is(error)) throw new CliUsageError(error.message.replace(/\.$/, ''));
    throw error;
  }
}

/** Prints a line per request unless `quiet`. */
function follow(server: MockTrafficServer, quiet: boolean): void {
  if (quiet) return;
  server.subscribe((activity) => {
    const line = activityLine(activity);
    if (line !== undefined) console.log(line);
  });
}

function printBanner(server: MockTrafficServer, lines: readonly string[]): void {
  const kind = 'target' in server ? 'proxy' : 'replay';
  console.log(
    [
      `bizmsg ${kind} (Variant ${server.variant}) listening on ${server.baseUrl}`,
      ...lines,
      `Control API: ${server.origin}/_bizmsg/ (health, requests, stream${kind === 'proxy' ? ', drift' : ''})`,
      `Dashboard: ${server.origin}/`,
    ].join('\n'),
  );
}
