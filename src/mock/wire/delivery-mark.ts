// The header that marks every webhook delivery of a bizmsg mock, so that a mock refuses one led back to it.
/**
 * The header every webhook delivery of a bizmsg mock carries, and that every route of a mock
 * refuses: as a proxy finds a forwarding loop by its own name in `Via`, a mock finds its deliveries
 * led back to it by a URL it could not see through (a name that resolves to this machine) or a
 * receiver that passes them on.
 */
export const DELIVERY_MARKER = 'x-bizmsg-mock-delivery';
