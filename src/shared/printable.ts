// Text from outside (a CSV cell, a receiver's answer, a name a client sent) made inert for whoever
// reads it: control characters (terminal escape sequences among them), the bidi controls (U+202E
// and its kin, which reorder what a reader sees around them), the invisible ones (zero-width space,
// word joiner, byte order mark; not the joiners emoji and scripts need) and the line and paragraph
// separators, written as `\u` escapes. One home for every reader: the mock's dashboard in the
// browser, the bizmsg-mock bin's lines, the bizmsg bin, the quoted values of error messages.

/** The bidi controls, invisible characters and line and paragraph separators, as a character class. */
const INVISIBLE = String.raw`\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff`;
/** Every control character, and every character of INVISIBLE. */
const CONTROLS = new RegExp(String.raw`[\u0000-\u001f\u007f-\u009f${INVISIBLE}]`, 'g');
/** The same but line feeds and tabs, which a page shows as what they are. */
const CONTROLS_BUT_LINES = new RegExp(String.raw`[\u0000-\u0008\u000b-\u001f\u007f-\u009f${INVISIBLE}]`, 'g');

/** `text` with its control characters, bidi controls and invisible characters as `\u` escapes; `lines` keeps line feeds and tabs. */
export function printable(text: string, { lines = false }: { lines?: boolean } = {}): string {
  return text.replace(
    lines ? CONTROLS_BUT_LINES : CONTROLS,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
