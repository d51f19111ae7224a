/**
 * Forward proxies, as curl, npm and Go read them: `HTTPS_PROXY` for an https target,
 * `HTTP_PROXY` for an http one (either in lower case, which wins), `NO_PROXY` for the hosts
 * reached directly. The guard reaches a target through its proxy with CONNECT, over http and
 * https alike: the tunnel carries its bytes as a direct connection would, so the guard reads and
 * bounds each answer the same way, and every error of the proxy is told from the target's. The
 * bundled reference and anything on loopback are never proxied.
 *
 * The credentials of a proxy's URL (`http://user:pass@proxy:3128`, percent-encoded) are sent as
 * Proxy-Authorization, on CONNECT only; they are as secret as the key (reporting/redaction.ts
 * removes them) and no message shows them: a proxy is named by its host and port.
 */
import http from 'node:http';
import net from 'node:net';

/** A proxy as the guard uses it. */
export interface Proxy {
  host: string;
  port: number;
  /** `Basic …`, from the URL's credentials. */
  authorization?: string;
  /** How messages name it: `proxy.example.com:3128`, never with its credentials. */
  shown: string;
}

/** The proxies of a run, read from the environment by the settings (setup/settings.ts). */
export interface Proxies {
  https?: Proxy;
  http?: Proxy;
  /** NO_PROXY as given: host suffixes, `*`, IP addresses (and IPv4 ranges), each with a port or not. */
  noProxy: string;
}

/** The proxy variables, in the order read: the lower-case spelling first, as curl reads them. */
export const proxyVariables = {
  https: ['https_proxy', 'HTTPS_PROXY'],
  http: ['http_proxy', 'HTTP_PROXY'],
  noProxy: ['no_proxy', 'NO_PROXY'],
} as const;

/** A proxy's URL read; a string says what is wrong with it (never its credentials). */
export function parseProxy(value: string): Proxy | string {
  let url: URL;
  try {
    // curl takes a proxy without a scheme as http.
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    return 'is not a URL (http://host:port, or http://user:password@host:port)';
  }
  if (url.protocol !== 'http:') {
    return `is a ${url.protocol.replace(/:$/, '')} proxy: only http:// proxies are supported`;
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || 80);
  const proxy: Proxy = { host, port, shown: `${url.hostname}:${port}` };
  if (url.username !== '' || url.password !== '') {
    let credentials: string;
    try {
      credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    } catch {
      return 'has credentials that are not percent-encoded correctly';
    }
    proxy.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  return proxy;
}

/** Whether a host is this machine: never proxied. */
export function isLoopback(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (net.isIPv4(name)) return name.startsWith('127.');
  if (!net.isIPv6(name)) return false;
  const address = new net.SocketAddress({ address: name, family: 'ipv6' }).address;
  // ::1, or an IPv4 loopback address mapped into IPv6 (::ffff:127.0.0.1).
  return address === '::1' || /^::ffff:127\./.test(address) || /^::ffff:7f/.test(address);
}

/** An IPv4 address as a number. */
const ipv4 = (address: string) =>
  address.split('.').reduce((value, part) => value * 256 + Number(part), 0);

/** Whether one NO_PROXY entry names this host and port. */
function bypassedBy(entry: string, host: string, port: number): boolean {
  if (entry === '*') return true;
  // host, host:port, [v6], [v6]:port, v6 (bare, no port), a.b.c.d/n.
  let name = entry;
  let entryPort: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    name = bracketed[1]!;
    entryPort = bracketed[2] ? Number(bracketed[2]) : undefined;
  } else if (!net.isIPv6(entry.split('/')[0]!)) {
    const colon = /^(.*):(\d+)$/.exec(entry);
    if (colon) [name, entryPort] = [colon[1]!, Number(colon[2])];
  }
  if (entryPort !== undefined && entryPort !== port) return false;
  const target = host.toLowerCase().replace(/\.$/, '');
  name = name.toLowerCase().replace(/\.$/, '');
  const range = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(name);
  if (range && net.isIPv4(target)) {
    const bits = Number(range[2]);
    if (bits === 0) return true;
    const mask = bits >= 32 ? 0xffffffff : ~(2 ** (32 - bits) - 1) >>> 0;
    return (ipv4(target) & mask) >>> 0 === (ipv4(range[1]!) & mask) >>> 0;
  }
  if (net.isIP(name)) return net.isIP(target) !== 0 && sameAddress(name, target);
  // A name matches itself and every name below it; a leading "." or "*." changes nothing.
  const suffix = name.replace(/^\*?\./, '');
  return suffix !== '' && (target === suffix || target.endsWith(`.${suffix}`));
}

function sameAddress(a: string, b: string): boolean {
  if (net.isIPv4(a) || net.isIPv4(b)) return a === b;
  // IPv6 written two ways: compared through a socket address's canonical form.
  const canonical = (address: string) => new net.SocketAddress({ address, family: 'ipv6' }).address;
  return canonical(a) === canonical(b);
}

/** The proxy a connection to host:port goes through, or none (NO_PROXY, loopback, none set). */
export function proxyFor(
  proxies: Proxies | undefined,
  https: boolean,
  host: string,
  port: number,
): Proxy | undefined {
  const proxy = https ? proxies?.https : proxies?.http;
  if (!proxy || isLoopback(host)) return undefined;
  const entries = proxies!.noProxy.split(/[\s,]+/).filter(Boolean);
  return entries.some((entry) => bypassedBy(entry, host, port)) ? undefined : proxy;
}

/**
 * Asks the proxy on `socket` (connecting or connected) for a tunnel to host:port, through Node's
 * own HTTP client, which writes the CONNECT request and parses the proxy's answer (its head
 * bounded by Node's header limit). Calls `done` once: with nothing when the tunnel is open (the
 * socket then carries the target's bytes), or with an error whose message starts with
 * "proxy …" and says what the proxy did.
 */
export function openTunnel(
  socket: net.Socket,
  proxy: Proxy,
  host: string,
  port: number,
  done: (error?: Error) => void,
): void {
  const authority = `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
  const request = http.request({
    method: 'CONNECT',
    path: authority,
    headers: {
      host: authority,
      ...(proxy.authorization ? { 'proxy-authorization': proxy.authorization } : {}),
    },
    // No agent: the request goes on this socket alone, which the tunnel then is.
    createConnection: () => socket,
  });
  let settled = false;
  const finish = (error?: Error) => {
    if (settled) return;
    settled = true;
    done(error);
  };
  request.on('connect', (answer, tunnel, head) => {
    const status = answer.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      tunnel.destroy();
      const line = `HTTP/${answer.httpVersion} ${status} ${answer.statusMessage ?? ''}`.trim();
      finish(new Error(`${proxyRefusal(proxy, status, authority)} (${line})`));
      return;
    }
    // Bytes the proxy sent after its answer are the target's first.
    if (head.length > 0) tunnel.unshift(head);
    finish();
  });
  request.on('error', (error: Error & { code?: string }) =>
    finish(
      error.code === 'ECONNRESET' && socket.connecting === false
        ? new Error(`proxy ${proxy.shown} closed the connection before answering CONNECT`)
        : error.code === 'HPE_INVALID_CONSTANT' || error.code?.startsWith('HPE_')
          ? new Error(`proxy ${proxy.shown} sent no HTTP answer`)
          : new Error(`proxy ${proxy.shown} unreachable: ${error.message}`, { cause: error }),
    ),
  );
  request.end();
}

/** What a proxy's status to CONNECT means, in words that start with "proxy". */
function proxyRefusal(proxy: Proxy, status: number, authority: string): string {
  if (status === 407) {
    return `proxy ${proxy.shown} refused the credentials: ${proxy.authorization ? 'they were not accepted' : 'it asks for a user and password'}`;
  }
  if (status === 502 || status === 503 || status === 504) {
    return `proxy ${proxy.shown} could not reach ${authority}`;
  }
  return `proxy ${proxy.shown} refused the tunnel to ${authority}`;
}
