// Text from outside (a CSV cell, a receiver's answer, a name a client sent) made inert for whoever
// reads it: control characters (terminal escape sequences among them) and the bidi controls (U+202E
// and its kin, which reorder what a reader sees around them) written as `\u` escapes. One home for
// every reader: the mock's dashboard in the browser, the bizmsg-mock bin's lines, the bizmsg bin.

/** Every control character and bidi control. */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The same but line feeds and tabs, which a page shows as what they are. */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with its control characters and bidi controls as `\u` escapes; `lines` keeps line feeds and tabs. */
export function printable(text: string, { lines = false }: { lines?: boolean } = {}): string {
  return text.replace(
    lines ? CONTROLS_BUT_LINES : CONTROLS,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
