// Whom a mock answers at all, before any route looks at a request: never one of its own webhook
// deliveries (a URL or a receiver that leads one back to a mock), and over real HTTP only a `Host`
// that is one of its names, so that a page of another site that rebinds its name to 127.0.0.1
// reaches nothing. Every face applies it to every route; each answers the block in its own form.
import type { Variant } from '../../../contract/variant.js';
import { cutShort, showValue } from '../../../shared/describe.js';
import { InvalidArgumentError } from '../../../shared/errors.js';
import { envelopeOf } from '../envelope.js';
import { MockHttpError } from '../../wire/http-error.js';
import type { MockAnswer, MockRequest } from '../../wire/request.js';
import { DELIVERY_MARKER } from '../../wire/delivery-mark.js';

/** Why a request is blocked before any route: the message, and the header at fault with what is wrong with it. */
export interface RequestBlock {
  readonly message: string;
  readonly details: Record<string, string[]>;
}

const MARKED: RequestBlock = {
  message:
    'This request carries X-Bizmsg-Mock-Delivery: it is a webhook delivery of a bizmsg mock that a webhook URL (or a receiver passing it on) led back to a mock. ' +
    'Mocks refuse their own deliveries, so that no delivery can steer a mock or loop.',
  details: { [DELIVERY_MARKER]: ['marks a delivery of a bizmsg mock'] },
};

/** A host name is never longer than this: a longer `Host` header is cut where a refusal names it. */
const MAX_HOST_NAME = 253;

/**
 * The names a mock over real HTTP answers to in `Host`, as Vite's `server.allowedHosts`: `localhost`
 * and its subdomains, any IP address (a page can rebind a name, never an address), the name it was
 * bound to, and the names given; any port, as a port forward keeps the name. A request with no
 * `Host` (HTTP/1.0) comes from a program, never from a browser's page, and is answered.
 */
export class HostAllowlist {
  readonly #names: ReadonlySet<string>;
  /** Domains given with a leading dot, kept with it: `.example.com` takes in `example.com` and `a.example.com`. */
  readonly #domains: readonly string[];

  /** `bound`: the host the server listens on; `allowed`: the names of the `allowedHosts` option. */
  constructor(bound: string, allowed: readonly string[] = []) {
    const given = checkAllowedHosts(allowed);
    this.#names = new Set([withoutDot(bound.toLowerCase()), ...given.filter((name) => !name.startsWith('.'))]);
    this.#domains = given.filter((name) => name.startsWith('.'));
  }

  /** Whether a request with this `Host` header is answered. */
  allows(host: string | null): boolean {
    if (host === null) return true;
    const name = hostnameOf(host);
    if (name === undefined) return false;
    if (name === 'localhost' || name.endsWith('.localhost') || isIpAddress(name) || this.#names.has(name)) return true;
    return this.#domains.some((domain) => name === domain.slice(1) || name.endsWith(domain));
  }

  /** The block of a request whose `Host` names something else. */
  block(host: string): RequestBlock {
    return {
      message:
        `Host ${cutShort(hostnameOf(host) ?? host, MAX_HOST_NAME)} is not one of this mock's names: it answers to localhost (and *.localhost), 127.0.0.1, [::1], any IP address ` +
        'and the names given to --allowed-hosts (allowedHosts), so that a page of another site that rebinds its name to this machine cannot reach it.',
      details: { host: ["is not one of this mock's names"] },
    };
  }
}

/**
 * Why a mock blocks `request` before any route, or undefined: one of its own deliveries, or (with
 * `hosts`, over real HTTP) a `Host` that is not one of its names. In process (msw) there is no Host to check.
 */
export function requestBlock(request: Pick<MockRequest, 'headers'>, hosts?: HostAllowlist): RequestBlock | undefined {
  if (request.headers.get(DELIVERY_MARKER) !== null) return MARKED;
  const host = request.headers.get('host');
  return hosts === undefined || hosts.allows(host) ? undefined : hosts.block(host!);
}

/** A block as the service answers it: 403 INSUFFICIENT_PERMISSIONS in the variant's envelope. */
export function blockedByService(variant: Variant, block: RequestBlock): MockAnswer {
  const error = new MockHttpError('INSUFFICIENT_PERMISSIONS', block.message, block.details);
  const { status, body } = envelopeOf(variant).error(error);
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** The `allowedHosts` option, checked: host names, lower case, each maybe with a leading dot. */
function checkAllowedHosts(allowed: unknown): string[] {
  const names: unknown[] = Array.isArray(allowed) ? allowed : [allowed];
  const wrong = Array.isArray(allowed) ? names.findIndex((name) => !isAllowedHostName(name)) : 0;
  if (wrong >= 0)
    throw new InvalidArgumentError(
      `The \`allowedHosts\` option must be an array of host names (a leading dot takes in subdomains: ".example.com"), got ${showValue(names[wrong])}.`,
    );
  return (names as string[]).map((name) => withoutDot(name.toLowerCase()));
}

/** Whether `name` can be one of `allowedHosts`: a host name, or a domain with a leading dot (letters, digits, hyphens, dots; no port). */
export function isAllowedHostName(name: unknown): name is string {
  return typeof name === 'string' && /^\.?[a-z0-9-]+(\.[a-z0-9-]+)*\.?$/i.test(name);
}

/** A `Host` header: a name or an address, maybe a port; nothing else (no user, no path). */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[^\s/\\@?#[\]:]+)(:\d{1,5})?$/i;

/** The host name of a `Host` header as a URL reads it (lower case, an IPv4 address in its usual form), without a final dot. */
function hostnameOf(host: string): string | undefined {
  if (!HOST_HEADER.test(host)) return undefined;
  try {
    return withoutDot(new URL(`http://${host}/`).hostname);
  } catch {
    return undefined;
  }
}

/** Whether a host name, as a URL writes it, is an IP address: four decimal numbers, or IPv6 in brackets. */
function isIpAddress(hostname: string): boolean {
  return hostname.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}

function withoutDot(name: string): string {
  return name.endsWith('.') ? name.slice(0, -1) : name;
}
