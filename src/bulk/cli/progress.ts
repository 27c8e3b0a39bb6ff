// The progress of `bizmsg bulk` on stderr (stdout holds only the report): in a terminal a cli-progress
// bar, elsewhere (a CI log) a line every few seconds; both say when the client waits for the rate
// window. `stop` ends either and gives the terminal its cursor back; it may be called any number of times.
import { SingleBar } from 'cli-progress';
import type { BulkProgress } from '../types.js';
import { say } from './output.js';
import { rateWaitText, type RateWindow } from './rate-window.js';

/** The progress shown while a run goes. */
export interface Progress {
  /** After each row's result. */
  update(progress: BulkProgress): void;
  /** A word on what the command does now (stopping after Ctrl-C). */
  note(text: string): void;
  /** Ends the display, the cursor shown again. */
  stop(): void;
}

/** How often the display looks again though no row ended (a wait for the rate window). */
const TICK_MS = 1000;
/** How often a line is written without a terminal. */
const LINE_EVERY_MS = 5000;

/** The progress over `total` rows of `source` (named in the first line) on stderr: a bar in a terminal, else lines. */
export function startProgress(total: number, window: RateWindow, source: string): Progress {
  const stream = process.stderr;
  let last: BulkProgress | undefined;
  const display = stream.isTTY ? barDisplay(total, stream) : lineDisplay(total, source, stream);
  const show = () => {
    // The last row's answer may leave no request in the window: that is no wait, nothing is left to send.
    const wait = doneOf(last) < total ? window.waiting() : undefined;
    display.show(last, wait === undefined ? undefined : rateWaitText(wait));
  };
  const ticker = setInterval(show, TICK_MS);
  ticker.unref();
  show();
  return {
    update(progress) {
      last = progress;
      show();
    },
    note: (text) => display.note(text),
    stop() {
      clearInterval(ticker);
      display.stop();
    },
  };
}

/** One way of showing progress. */
interface Display {
  /** The progress so far and the rate window's wait, if any: after each row's result and each second. */
  show(progress: BulkProgress | undefined, wait: string | undefined): void;
  note(text: string): void;
  stop(): void;
}

function doneOf(progress: BulkProgress | undefined): number {
  return progress === undefined ? 0 : progress.sent + progress.failed + progress.unknown + progress.skipped;
}

/** The counts as the bar and the lines show them. */
function countsOf(progress: BulkProgress | undefined) {
  return {
    sent: progress?.sent ?? 0,
    failed: progress?.failed ?? 0,
    unknown: progress?.unknown ?? 0,
    skipped: progress?.skipped ?? 0,
  };
}

/** A cli-progress bar; its last field says what it waits for. */
function barDisplay(total: number, stream: NodeJS.WriteStream): Display {
  const bar = new SingleBar({
    format:
      'sending |{bar}| {value}/{total} rows · sent {sent} · failed {failed} · unknown {unknown} · skipped {skipped}{note}',
    stream,
    barsize: 20,
    hideCursor: true,
  });
  let note = '';
  let shown: { progress: BulkProgress | undefined; wait: string | undefined } = {
    progress: undefined,
    wait: undefined,
  };
  const draw = () => {
    const notes = [note, shown.wait ?? ''].filter((text) => text !== '');
    bar.update(doneOf(shown.progress), {
      ...countsOf(shown.progress),
      note: notes.map((text) => ` · ${text}`).join(''),
    });
  };
  bar.start(total, 0, { ...countsOf(undefined), note: '' });
  return {
    show(progress, wait) {
      shown = { progress, wait };
      draw();
    },
    note(text) {
      note = text;
      draw();
    },
    stop: () => bar.stop(),
  };
}

/** A line to begin, one every few seconds, and one when a wait for the rate window begins. */
function lineDisplay(total: number, source: string, stream: NodeJS.WriteStream): Display {
  say(stream, `bizmsg: sending ${total} row${total === 1 ? '' : 's'} of ${source}`);
  let lastLine = Date.now();
  let waiting = false;
  return {
    show(progress, wait) {
      if (wait !== undefined && !waiting) say(stream, `bizmsg: ${wait}`);
      waiting = wait !== undefined;
      if (Date.now() - lastLine < LINE_EVERY_MS) return;
      const counts = Object.entries(countsOf(progress)).map(([name, count]) => `${name} ${count}`);
      const parts = [`${doneOf(progress)}/${total} rows`, ...counts, ...(wait === undefined ? [] : [wait])];
      say(stream, `bizmsg: ${parts.join(' · ')}`);
      lastLine = Date.now();
    },
    note: (text) => say(stream, `bizmsg: ${text}`),
    stop: () => undefined,
  };
}
