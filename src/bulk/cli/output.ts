// What `bizmsg bulk` writes, made inert: a CSV cell, a service's answer or an error may carry escape
// sequences (erase a line, set the title, write the clipboard), so no line leaves with a control character.
import { printable } from '../../shared/printable.js';

/**
 * Writes `text` to `stream` (stdout or stderr), each of its lines with every control character as
 * a `\u` escape. A value from outside goes into `text` through `printable` first, so that its line
 * breaks cannot forge a line of the report.
 */
export function say(stream: NodeJS.WritableStream, text: string): void {
  stream.write(
    `${text
      .split('\n')
      .map((line) => printable(line))
      .join('\n')}\n`,
  );
}

/** The client's `logger`: each line on stderr as one inert line (a service's error may quote a CSV cell). */
export const stderrLogger = {
  debug: (message: string) => say(process.stderr, printable(message)),
  info: (message: string) => say(process.stderr, printable(message)),
  warn: (message: string) => say(process.stderr, printable(message)),
  error: (message: string) => say(process.stderr, printable(message)),
};
