// How deep a JSON text nests, found by scanning it (no parse, no recursion).
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * The top-level field of a JSON text whose value nests objects and arrays deeper than
 * `maxDepth` levels (the body itself is level 1); `'body'` when the text is not an object of
 * fields; undefined when nothing is that deep. It scans the text rather than a parsed value,
 * so a body nested 500,000 levels costs neither a parse nor a recursion.
 */
export function fieldNestedTooDeep(text: string, maxDepth: number): string | undefined {
  let depth = 0;
  // The last string at level 1: in an object, the name of the member being read.
  let name: [start: number, end: number] | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === QUOTE) {
      const end = endOfString(text, i);
      if (depth === 1) name = [i, end];
      i = end;
    } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      depth += 1;
      if (depth > maxDepth)
        return text.trimStart().startsWith('{') && name !== undefined
          ? decodeName(text.slice(name[0], name[1] + 1))
          : 'body';
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return undefined;
}

/** The index of the quote that closes the string opened at `start` (or the text's end). */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === BACKSLASH) i += 1;
    else if (char === QUOTE) return i;
  }
  return text.length;
}

function decodeName(literal: string): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return 'body';
  }
}
