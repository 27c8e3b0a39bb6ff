// Stopping with the npm that started the mock: `npx` passes no SIGTERM on, and runs the bin under
// `sh -c`, so a killed npx (or the test runner above it) would leave the mock holding its port.
// Started any other way (`bizmsg-mock &` in a CI step, a service manager) it outlives its parent.
import { readFileSync } from 'node:fs';

/** How often the launcher is looked at. */
const POLL_MS = 500;

/**
 * When npm (npx, `npm exec`, `npm run`: they set `npm_command`) started the mock, calls `stop` with
 * what went away once the process that started it does: its parent, and (on Linux, where `/proc`
 * says) its grandparent when the parent is a shell such as npm's `sh -c`.
 */
export function onLauncherGone(stop: (gone: string) => void): void {
  const parent = process.ppid;
  // Started by init (PID 1, a container's entry point) there is nothing to outlive.
  if (parent <= 1 || process.env.npm_command === undefined) return;
  const watched = [parent];
  const grandparent = isShell(parent) ? parentOf(parent) : undefined;
  if (grandparent !== undefined && grandparent > 1) watched.push(grandparent);
  // Orphans are adopted by init or a subreaper: the parent id changes; a dead grandparent is gone.
  const timer = setInterval(() => {
    const gone = process.ppid === parent ? watched.find((pid) => !alive(pid)) : parent;
    if (gone !== undefined) stop(`the npm ${process.env.npm_command} that started it (process ${gone}) has gone`);
  }, POLL_MS);
  timer.unref();
}

function isShell(pid: number): boolean {
  try {
    return /^(sh|dash|bash|zsh|ash)$/.test(readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
  } catch {
    return false;
  }
}

/** The parent of `pid`, from /proc/PID/stat ("pid (comm) state ppid ..."; comm may hold spaces). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
