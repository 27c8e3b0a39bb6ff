// What differs between the service's variants at the HTTP level: authentication and the success envelope.
/** What differs between the service's variants at the HTTP level. */
export interface Protocol {
  /** Human name, used in error messages (e.g. "Variant 1"). */
  readonly name: string;
  /** Headers that authenticate a request with `apiKey`. */
  authHeaders(apiKey: string): Record<string, string>;
  /** The payload and list `meta` of a success body; undefined if it is not this variant's envelope. */
  unwrap(body: unknown): { data: unknown; meta: unknown } | undefined;
}
