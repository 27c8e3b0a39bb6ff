// Calls of the control API from the page: same origin, JSON both ways, the control token when the
// tab has one. A refusal is a ControlError carrying the mock's own message.
import { inert } from './inert.js';
import { controlToken } from './token.js';

/** A control call the mock refused (or could not answer): its status and the mock's message. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The headers every call carries: the token, when the tab has one. */
export function controlHeaders(): Record<string, string> {
  const token = controlToken();
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/**
 * Calls `method path` below `/_bizmsg`; resolves with the JSON answer (undefined for a 204), every
 * control character and bidi control in its strings written as a `\u` escape.
 */
export async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...controlHeaders() };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/_bizmsg${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ControlError(0, 'The mock does not answer: is bizmsg-mock still running?');
  }
  const text = await response.text();
  // What the page shows of the mock's records and messages, inert: a receiver's answer, a contact's name.
  if (response.ok) return inert(text === '' ? undefined : JSON.parse(text)) as T;
  throw new ControlError(response.status, inert(messageOf(text, response.status)));
}

function messageOf(text: string, status: number): string {
  try {
    const { error } = JSON.parse(text) as { error: { message: string } };
    return error.message;
  } catch {
    return `The mock answered ${status}.`;
  }
}

/** A query string of the values given (`?a=1&b=x`), or '' when none is. */
export function queryOf(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
