// The progress of `bizmsg bulk` and `bizmsg contacts import` on stderr (stdout holds only the
// report): in a terminal a cli-progress bar, elsewhere (a CI log) a line every few seconds; both say
// when the client waits for the rate window. `stop` ends either and gives the terminal its cursor
// back; it may be called any number of times.
import { SingleBar } from 'cli-progress';
import { say } from './output.js';
import { rateWaitText, type RateWindow } from './rate-window.js';

/** A run's progress event: its counts so far by name (other fields are not shown). */
export type Counts = object;

/**
 * What a command counts: the word for what it does (`sending`), the counts of rows done, in order,
 * and any other count shown after them; a count named in `hiddenAtZero` is shown once it is not 0.
 */
export interface Tally {
  readonly verb: string;
  readonly done: readonly string[];
  readonly more?: readonly string[];
  readonly hiddenAtZero?: readonly string[];
}

/** What `bizmsg bulk` counts. */
export const BULK_TALLY: Tally = {
  verb: 'sending',
  done: ['sent', 'failed', 'unknown', 'skipped', 'suppressed'],
  // Only a run with an opt-out list suppresses: the others' lines stay as they were.
  hiddenAtZero: ['suppressed'],
};

/** The progress shown while a run goes. */
export interface Progress {
  /** After each row's result. */
  update(progress: Counts): void;
  /** A word on what the command does now (stopping after Ctrl-C). */
  note(text: string): void;
  /** Ends the display, the cursor shown again. */
  stop(): void;
}

/** A progress that shows nothing until `start`, and never after `stop`. */
export interface LaterProgress extends Progress {
  start(): void;
}

/**
 * The progress `begin` starts, once `start` is called: `bizmsg bulk` starts it when its journal
 * has opened, so that a journal that refuses the run (in use, or classic-level missing) is said
 * before any "sending" line. Until then updates and notes are dropped.
 */
export function laterProgress(begin: () => Progress): LaterProgress {
  let shown: Progress | undefined;
  let stopped = false;
  return {
    start() {
      if (shown === undefined && !stopped) shown = begin();
    },
    update: (progress) => shown?.update(progress),
    note: (text) => shown?.note(text),
    stop() {
      stopped = true;
      shown?.stop();
    },
  };
}

/** How often the display looks again though no row ended (a wait for the rate window). */
const TICK_MS = 1000;
/** How often a line is written without a terminal. */
const LINE_EVERY_MS = 5000;

/** The progress over `total` rows of `source` (named in the first line) on stderr: a bar in a terminal, else lines. */
export function startProgress(total: number, window: RateWindow, source: string, tally = BULK_TALLY): Progress {
  const stream = process.stderr;
  let last: Counts | undefined;
  const display = stream.isTTY ? barDisplay(total, stream, tally) : lineDisplay(total, source, stream, tally);
  const show = () => {
    // The last row's answer may leave no request in the window: that is no wait, nothing is left to send.
    const wait = doneOf(last, tally) < total ? window.waiting() : undefined;
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
  show(progress: Counts | undefined, wait: string | undefined): void;
  note(text: string): void;
  stop(): void;
}

function doneOf(progress: Counts | undefined, tally: Tally): number {
  return tally.done.reduce((sum, name) => sum + countOf(progress, name), 0);
}

function countOf(progress: Counts | undefined, name: string): number {
  const count = (progress as Readonly<Record<string, unknown>> | undefined)?.[name];
  return typeof count === 'number' ? count : 0;
}

/** The counts as the bar and the lines show them: `sent 3`, …. */
function countsOf(progress: Counts | undefined, tally: Tally): string[] {
  return [...tally.done, ...(tally.more ?? [])]
    .filter((name) => countOf(progress, name) !== 0 || tally.hiddenAtZero?.includes(name) !== true)
    .map((name) => `${name} ${countOf(progress, name)}`);
}

/** A cli-progress bar; its last field says what it waits for. */
function barDisplay(total: number, stream: NodeJS.WriteStream, tally: Tally): Display {
  const bar = new SingleBar({
    format: `${tally.verb} |{bar}| {value}/{total} rows · {counts}{note}`,
    stream,
    barsize: 20,
    hideCursor: true,
  });
  let note = '';
  let shown: { progress: Counts | undefined; wait: string | undefined } = {
    progress: undefined,
    wait: undefined,
  };
  const draw = () => {
    const notes = [note, shown.wait ?? ''].filter((text) => text !== '');
    bar.update(doneOf(shown.progress, tally), {
      counts: countsOf(shown.progress, tally).join(' · '),
      note: notes.map((text) => ` · ${text}`).join(''),
    });
  };
  bar.start(total, 0, { counts: countsOf(undefined, tally).join(' · '), note: '' });
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
function lineDisplay(total: number, source: string, stream: NodeJS.WriteStream, tally: Tally): Display {
  say(stream, `bizmsg: ${tally.verb} ${total} row${total === 1 ? '' : 's'} of ${source}`);
  let lastLine = Date.now();
  let waiting = false;
  return {
    show(progress, wait) {
      if (wait !== undefined && !waiting) say(stream, `bizmsg: ${wait}`);
      waiting = wait !== undefined;
      if (Date.now() - lastLine < LINE_EVERY_MS) return;
      const parts = [
        `${doneOf(progress, tally)}/${total} rows`,
        ...countsOf(progress, tally),
        ...(wait === undefined ? [] : [wait]),
      ];
      say(stream, `bizmsg: ${parts.join(' · ')}`);
      lastLine = Date.now();
    },
    note: (text) => say(stream, `bizmsg: ${text}`),
    stop: () => undefined,
  };
}
