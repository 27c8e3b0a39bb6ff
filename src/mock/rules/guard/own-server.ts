// Whether a webhook URL would reach the mock itself: its own origin, and, served on this machine, any
// loopback alias or address of this machine at its port, however a URL spells it. A mock delivering
// to itself would let anyone with an API key steer its control API, and loop.

/** Ports a URL without one reaches. */
const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/** Where a mock is served, and so which webhook URLs would lead back to it. */
export class OwnServer {
  readonly #hostname: string;
  readonly #port: string;
  /** Served on this machine: every loopback alias, and these addresses and names, reach it at its port. */
  readonly #local: ReadonlySet<string> | undefined;

  /**
   * `baseUrl`: where the mock serves its API; `localHosts`: the names and addresses of this machine
   * (its interfaces, its host name), given by the face that serves it on this machine, if one does.
   */
  constructor(baseUrl: string, localHosts: readonly string[] = []) {
    const url = new URL(baseUrl);
    this.#hostname = comparable(url.hostname);
    this.#port = portOf(url);
    const local = new Set(localHosts.flatMap((host) => hostnameOf(host) ?? []));
    this.#local = isLoopback(this.#hostname) || local.has(this.#hostname) ? local : undefined;
  }

  /** Why `url` may not be a webhook URL of this mock (it would reach the mock itself), or undefined. */
  problemWith(url: string): string | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined; // the URL's schema reports it
    }
    if (portOf(parsed) !== this.#port) return undefined;
    const hostname = comparable(parsed.hostname);
    const own =
      hostname === this.#hostname || (this.#local !== undefined && (isLoopback(hostname) || this.#local.has(hostname)));
    return own ? `must not point at this mock itself (${hostname}:${this.#port} reaches it)` : undefined;
  }
}

function portOf(url: URL): string {
  return url.port === '' ? (DEFAULT_PORTS[url.protocol] ?? '') : url.port;
}

/**
 * A host name as the checks compare it: without a final dot, and an IPv4-mapped IPv6 address
 * (`[::ffff:7f00:1]`, which the kernel delivers to 127.0.0.1) as the IPv4 address it stands for.
 */
function comparable(hostname: string): string {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(name);
  if (mapped === null) return name;
  const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Every name and address that reaches this machine's loopback interface, or all of its interfaces. */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\./.test(hostname) ||
    hostname === '0.0.0.0' ||
    hostname === '[::1]' ||
    hostname === '[::]'
  );
}

/** A name or address (IPv6 with or without brackets) as a URL writes its host name; undefined if none could be. */
function hostnameOf(host: string): string | undefined {
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  try {
    return comparable(new URL(`http://${bracketed}/`).hostname);
  } catch {
    return undefined;
  }
}
