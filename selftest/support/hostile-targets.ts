/**
 * Small local servers that misbehave on purpose, for the safety self-test. One HTTP server (and
 * the same behaviours over TLS) serves every behaviour at its own base address,
 * http://127.0.0.1:<port>/<behaviour>/v1:
 *
 * - whole-target behaviours answer every request that way, the preflight included;
 * - `after-preflight-*` behaviours answer the preflight (GET /pets?limit=1) with an empty list,
 *   so that the run starts, and every other request that way.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type Server as TlsServer, createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSignedCertificate } from './certificate.ts';

type Respond = (req: IncomingMessage, res: ServerResponse) => void;

const json = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
  res.writeHead(status, { 'content-type': type });
  res.end(JSON.stringify(body));
};
const error401 = { code: 'unauthorized', message: 'missing or invalid API key', status: 401 };
let huge: Buffer | undefined;
/** An Error of 30 MB: valid JSON, far too large to be an answer. */
const hugeBody = () =>
  (huge ??= Buffer.from(
    `{"code": "unauthorized", "message": "${'x'.repeat(30_000_000)}", "status": 401}`,
  ));

/** Behaviours, by name. `hang` never answers; `reset` drops the connection (TCP RST). */
const misbehaviours: Record<string, Respond> = {
  unauthorized: (_req, res) => json(res, 401, error401),
  'not-found': (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<html><body>Not Found</body></html>');
  },
  html: (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Sign in</title><form></form>');
  },
  object: (_req, res) => json(res, 200, { pets: [] }),
  redirect: (_req, res) => {
    res.writeHead(301, { location: 'https://elsewhere.example/petstore/v1/pets?limit=1' });
    res.end();
  },
  hang: () => {},
  reset: (req) => req.socket.resetAndDestroy(),
  'server-error': (_req, res) => json(res, 503, { message: 'maintenance' }),
  // A gateway that never stops asking to wait.
  'always-429': (_req, res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end(JSON.stringify({ code: 'rate_limited', message: 'slow down', status: 429 }));
  },
  // Well-behaved: the 401 Error the suite expects of an unauthenticated request.
  conformant: (_req, res) => json(res, 401, error401),
  'not-json': (_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end('<html>401 Unauthorized</html>');
  },
  'wrong-type': (_req, res) => json(res, 401, error401, 'text/plain'),
  truncated: (_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"code": "unauth');
    setTimeout(() => res.destroy(), 20);
  },
  huge: (_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(hugeBody());
  },
  'redirect-loop': (req, res) => {
    res.writeHead(302, { location: req.url });
    res.end();
  },
};

function route(req: IncomingMessage, res: ServerResponse): void {
  const match = /^\/([a-z0-9-]+)\/v1(\/.*)$/.exec(req.url ?? '');
  const name = match?.[1] ?? '';
  const preflight = match?.[2] === '/pets?limit=1';
  if (name.startsWith('after-preflight-') && preflight) return json(res, 200, []);
  const behaviour = misbehaviours[name.replace(/^after-preflight-/, '')];
  if (!behaviour) return json(res, 404, { message: `no behaviour "${name}"` });
  behaviour(req, res);
}

export interface HostileTarget {
  /** The base address of a behaviour: `${origin}/${behaviour}/v1`. */
  baseUrl(behaviour: string): string;
  close(): Promise<void>;
}

async function serve(server: Server | TlsServer, scheme: 'http' | 'https'): Promise<HostileTarget> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: (behaviour) => `${scheme}://127.0.0.1:${port}/${behaviour}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function startHostileTarget(): Promise<HostileTarget> {
  return serve(createServer(route), 'http');
}

/** A target over TLS, and its certificate (PEM: a run can trust it with NODE_EXTRA_CA_CERTS). */
export interface TlsTarget extends HostileTarget {
  cert: string;
}

/**
 * The same behaviours over TLS, with a self-signed certificate made for the occasion for
 * 127.0.0.1 (by the suite's own builder: no openssl needed).
 */
export async function startSelfSignedTarget(): Promise<TlsTarget> {
  const credentials = selfSignedCertificate('127.0.0.1', ['127.0.0.1']);
  return { ...(await serve(createTlsServer(credentials, route), 'https')), cert: credentials.cert };
}
