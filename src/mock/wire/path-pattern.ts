// Path templates (`/contacts/{id}`, `GET /contacts/:id`) compiled to patterns, for the router and fault routes.
/** A `{name}` or `:name` segment of a path template. */
const PARAMETER = /\{(\w+)\}|:(\w+)/g;

/** A path template compiled: its pattern and its parameters' names, in order. */
interface PathPattern {
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

/**
 * Compiles a path template such as `/contacts/{id}` or `GET /contacts/:id`: each parameter
 * matches one non-empty segment, everything else matches itself. No trailing slash: `/contacts/`
 * reads as `/contacts/{id}` with an empty id, so it is neither that nor the list (as in the documents).
 */
export function compilePath(template: string): PathPattern {
  const names: string[] = [];
  let source = '';
  let last = 0;
  for (const match of template.matchAll(PARAMETER)) {
    source += escape(template.slice(last, match.index));
    source += '([^/]+)';
    names.push(match[1] ?? match[2]!);
    last = match.index + match[0].length;
  }
  source += escape(template.slice(last));
  return { pattern: new RegExp(`^${source}$`), names };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
