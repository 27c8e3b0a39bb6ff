import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MB = 1_048_576;

/** The preload that makes a process report its memory on SIGUSR2 (node --expose-gc --require it). */
export const GC_ON_SIGNAL = fileURLToPath(new URL('gc-on-signal.cjs', import.meta.url));

/** What a process holds once it collected its garbage, in MB. */
export interface Collected {
  /** V8's heap in use and the buffers outside it. */
  held: number;
  /** The resident set, read from /proc (Linux). */
  rss: number;
}

/** The resident set of `child`, in MB (Linux). */
export function rssMb(child: ChildProcess): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]!;
  return Number(kb) / 1024;
}

const answered = new WeakMap<ChildProcess, number>();

/**
 * Signals `child` (started with GC_ON_SIGNAL and BIZMSG_GC_REPORT=`report`) to collect its garbage,
 * and resolves with what it holds once its report answers this signal (rejects after 30 s).
 */
export async function collected(child: ChildProcess, report: string): Promise<Collected> {
  const signal = (answered.get(child) ?? 0) + 1;
  answered.set(child, signal);
  child.kill('SIGUSR2');
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const usage = reportFor(report, signal);
    if (usage !== undefined) return { held: (usage.heapUsed + usage.external) / MB, rss: rssMb(child) };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`process ${child.pid} did not report its memory within 30 s of SIGUSR2 number ${signal}`);
}

function reportFor(report: string, signal: number): NodeJS.MemoryUsage | undefined {
  try {
    const { signals, usage } = JSON.parse(readFileSync(report, 'utf8')) as {
      signals: number;
      usage: NodeJS.MemoryUsage;
    };
    return signals >= signal ? usage : undefined;
  } catch {
    return undefined; // not written yet
  }
}
