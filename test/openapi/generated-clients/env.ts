// What each program gets from the test (the mock's URL and keys) and how it reports what it read.
declare const process: { env: Record<string, string | undefined> };

/** The mock a program runs against: base URL and three keys. */
export interface MockConfig {
  baseUrl: string;
  /** Every scope, a plan without limits. */
  apiKey: string;
  /** Only `account:read`. */
  readOnlyKey: string;
  /** A plan allowing no contact, message or webhook endpoint. */
  tightKey: string;
}

/** The mock this program runs against. */
export const config: MockConfig = JSON.parse(process.env.BIZMSG_MOCK ?? '{}');

/** The payload of a success, or an error naming the status and body. */
export function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}

/** The status of a failure, and its body, which must be there. */
export function failed<E>(result: { error?: E; response: Response }): [number, E] {
  if (result.error === undefined) throw new Error(`expected an error, got ${result.response.status}`);
  return [result.response.status, result.error];
}

/** The first item of a list, which must have one. */
export function first<T>(items: readonly T[]): T {
  const [item] = items;
  if (item === undefined) throw new Error('expected a list with an item, got an empty one');
  return item;
}

/** What the program read, for the test to compare. */
export function report(value: unknown): void {
  console.log(JSON.stringify(value));
}
