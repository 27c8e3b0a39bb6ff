// How values and zod issues are put into words for error messages: one wording for the clients'
// errors, the webhook functions' argument errors and the mock's VALIDATION_ERROR details.
import { printable } from './printable.js';

/** A short, secret-free description of a value's kind: "an object", "an array", "null", "a Date". */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid Date' : 'a Date';
  return withArticle(typeof value);
}

/** `word` after "a" or "an": "an object", "a string", "an integer | null". */
export function withArticle(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

/** How much of a string an argument error shows. */
const SHOWN_CHARS = 40;

/**
 * A value as an argument error shows it: a string quoted (so that "100" is not read as 100) and
 * cut short, another primitive as itself, anything else by its kind, since turning an object into
 * text can throw (no `toString`, a throwing `toJSON`) or run user code.
 */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return quote(cut(value));
  // A BigInt as JavaScript writes it (`5n`), told apart from the number 5, and cut short as a string is.
  if (typeof value === 'bigint') return `${cut(String(value))}n`;
  return (typeof value === 'object' && value !== null) || typeof value === 'function' || typeof value === 'symbol'
    ? describeValue(value)
    : String(value);
}

/** `text` cut to what an argument error shows. */
function cut(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

/** `text` cut to `max` characters, saying how long it was: for outside text that may run to any length. */
export function cutShort(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/** `text` in double quotes, inert: escaped as JSON, and its bidi controls and invisible characters as `\u` escapes. */
export function quote(text: string): string {
  return printable(JSON.stringify(text));
}

/**
 * A value that may be a secret (a key pasted where a URL goes), as an error shows it: a string by
 * its length only, so that the key does not end up in a log; anything else as `showValue` does.
 */
export function showWithheld(value: unknown): string {
  return typeof value === 'string'
    ? `a string of ${value.length} characters (not shown: it may be a secret, such as a key pasted in the wrong place)`
    : showValue(value);
}

/** The fields of a zod issue read here; zod/mini ships no locale, so its own messages are terse. */
export interface ZodIssueLike {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  /** Present only when the value was parsed with `reportInput: true`. */
  readonly input?: unknown;
  readonly expected?: unknown;
  readonly origin?: unknown;
  readonly format?: unknown;
  readonly values?: readonly unknown[];
  readonly options?: readonly unknown[];
  readonly minimum?: unknown;
  /** The fields a strict object does not know (`unrecognized_keys`). */
  readonly keys?: readonly string[];
  /** Each branch's own issues (`invalid_union`). */
  readonly errors?: readonly (readonly ZodIssueLike[])[];
}

/**
 * The issues worth reporting: a union's issue gives way to the issues of the one branch whose
 * type the value has ("seed.random must be an integer", not "seed must match one of ...").
 */
export function reportedIssues(issues: readonly ZodIssueLike[]): ZodIssueLike[] {
  return issues.flatMap((issue) => {
    const typed = (issue.errors ?? []).filter((branch) => !branch.every(isTypeMismatch));
    if (issue.code !== 'invalid_union' || typed.length !== 1) return [issue];
    return reportedIssues(typed[0]!.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })));
  });
}

/** An issue that says the value is not even of the expected type. */
function isTypeMismatch(issue: ZodIssueLike): boolean {
  return issue.code === 'invalid_type' && issue.path.length === 0;
}

/**
 * What a zod issue asks of the value at its path, in words ("is required", "must be a string",
 * "must be one of open, closed").
 */
export function issueText(issue: ZodIssueLike): string {
  switch (issue.code) {
    case 'invalid_type':
      // A JSON value has no undefined: an undefined input reported means the field was absent.
      return 'input' in issue && issue.input === undefined
        ? 'is required'
        : `must be ${article(String(issue.expected))}`;
    case 'too_small':
      return tooSmall(issue);
    case 'invalid_format':
      // A pattern says in its own message what it asks for.
      if (issue.format === 'regex') return issue.message;
      return `must be a valid ${issue.format === 'datetime' ? 'ISO 8601 UTC timestamp' : String(issue.format)}`;
    case 'invalid_value':
      return `must be one of ${(issue.values ?? []).join(', ')}`;
    case 'invalid_union':
      if ('input' in issue && issue.input === undefined) return 'is required';
      // A discriminated union names its discriminator's values; a union of types names the types.
      if (issue.options !== undefined) return `must be one of ${issue.options.join(', ')}`;
      return unionOfTypes(issue) ?? 'must match one of the accepted shapes';
    case 'custom':
      return issue.message;
    default:
      return 'is invalid';
  }
}

/**
 * Each field at fault with what is wrong with it, from zod issues: `{ "content.name": ["is required"] }`.
 * A strict object's unknown fields are each named ("is not a known field"); an issue at the top goes under `top`.
 */
export function fieldProblems(issues: readonly ZodIssueLike[], top = 'body'): Record<string, string[]> {
  // A Map, not an object: a field may be named `constructor` or `toString`, which an object already has.
  const problems = new Map<string, string[]>();
  const add = (path: string, problem: string) => {
    const found = problems.get(path);
    if (found === undefined) problems.set(path, [problem]);
    else found.push(problem);
  };
  for (const issue of reportedIssues(issues)) {
    const unknown = issue.code === 'unrecognized_keys' ? (issue.keys ?? []) : [];
    for (const key of unknown) add([...issue.path, key].join('.'), 'is not a known field');
    if (unknown.length === 0) add(issuePath(issue) ?? top, issueText(issue));
  }
  return Object.fromEntries(problems);
}

/** The dotted path of an issue ("data.0.phone"), or undefined at the top. */
export function issuePath(issue: Pick<ZodIssueLike, 'path'>): string | undefined {
  return issue.path.length === 0 ? undefined : issue.path.map(String).join('.');
}

/** "must be an integer or an object" when the value has none of a union's types. */
function unionOfTypes(issue: ZodIssueLike): string | undefined {
  const branches = issue.errors ?? [];
  if (branches.length === 0 || !branches.every((branch) => branch.length === 1 && isTypeMismatch(branch[0]!)))
    return undefined;
  return `must be ${branches.map((branch) => article(String(branch[0]!.expected))).join(' or ')}`;
}

function tooSmall(issue: ZodIssueLike): string {
  if (issue.origin === 'number' || issue.origin === 'int') return `must be at least ${String(issue.minimum)}`;
  if (issue.minimum === 1) return 'must not be empty';
  return `must have at least ${String(issue.minimum)} ${issue.origin === 'string' ? 'characters' : 'items'}`;
}

function article(type: string): string {
  if (type === 'int') return 'an integer';
  // A JSON object by its keys (zod's record) is an object to whoever wrote it.
  if (type === 'record') return 'an object';
  return withArticle(type);
}
