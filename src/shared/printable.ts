// Text from outside (a CSV cell, a receiver's answer, a name a client sent) made inert for whoever
// reads it: control characters (terminal escape sequences among them), the bidi controls (U+202E
// and its kin, which reorder what a reader sees around them), the invisible ones (zero-width space,
// word joiner, byte order mark; not the joiners emoji and scripts need) and the line and paragraph
// separators, written as `\u` escapes. One home for every reader: the mock's dashboard in the
// browser, the bizmsg-mock bin's lines, the bizmsg bin, the quoted values of error messages.

// Literals, not built with String.raw and new RegExp: a bundler drops a literal its user never
// reaches, and keeps a top-level call (figure 1: verifyWebhookAsync bundled alone).
/**
 * Every control character, the bidi controls, invisible characters and line and paragraph
 * separators (U+061C, U+200B, U+200E, U+200F, U+2028 to U+202E, U+2060 to U+2064, U+2066 to U+2069, U+FEFF).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** `text` with its control characters, bidi controls and invisible characters as `\u` escapes; `lines` keeps line feeds and tabs. */
export function printable(text: string, { lines = false }: { lines?: boolean } = {}): string {
  return text.replace(CONTROLS, (char) =>
    lines && (char === '\n' || char === '\t') ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
