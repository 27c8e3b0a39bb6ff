// The two variants of the service.
/** A variant of the service: 1 (`X-API-Key`, `{success, data}`) or 2 (`Authorization: Bearer`, `{data}`). */
export type Variant = 1 | 2;
