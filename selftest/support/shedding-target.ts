/**
 * A conformant target as companies deploy one: the bundled reference behind a server that closes
 * a kept-alive connection after `keepAliveMs` idle (Node's `keepAliveTimeout`, which also sends
 * `Keep-Alive: timeout=N`), and, as a load shedder, answers every `shedEvery`-th request with a
 * 503 and `Retry-After` instead of passing it on (the request not processed), or resets a reused
 * connection as a request arrives on it after it was idle a while (`resetReused`, `resetIdleMs`):
 * the close of an idle connection crossing the request. With `tls`, it
 * speaks https, and may require a client certificate (mutual TLS).
 */
import { type RequestListener, type Server, createServer, request } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type ReferenceHandle, startReference } from '../../reference/src/server.ts';

export interface SheddingTarget {
  baseUrl: string;
  /** Requests seen, shed and reset ones included; those shed, those reset; connections made. */
  counts: { requests: number; shed: number; reset: number; connections: number };
  close(): Promise<void>;
}

export interface SheddingOptions {
  apiKey: string;
  /** Idle kept-alive connections are closed after this long. */
  keepAliveMs: number;
  /** Every n-th request is answered 503 with Retry-After (0: none). */
  shedEvery?: number;
  /** The Retry-After of a shed request, in seconds. */
  retryAfterS?: number;
  /** Send `Keep-Alive: timeout=N` (Node's default) or leave it out, as many servers do. */
  keepAliveHeader?: boolean;
  seedPets?: number;
  /**
   * Every n-th request that comes on a connection that served one already, idle at least
   * `resetIdleMs` since, is met with a reset, unanswered, as when an idle close and the request
   * cross (0: none).
   */
  resetReused?: number;
  /**
   * How long a connection must have been idle for its request to meet `resetReused`'s reset: an
   * idle close crosses only a request that comes after a pause (default 0: any).
   */
  resetIdleMs?: number;
  /** https with this certificate; `clientCa`: a client certificate it signed is required. */
  tls?: { key: string; cert: string; clientCa?: string };
}

export async function startSheddingTarget(options: SheddingOptions): Promise<SheddingTarget> {
  const reference: ReferenceHandle = await startReference({
    apiKey: options.apiKey,
    seedPets: options.seedPets ?? 120,
  });
  const upstream = new URL(reference.baseUrl);
  const counts = { requests: 0, shed: 0, reset: 0, connections: 0 };
  let reused = 0;
  const handler: RequestListener = (req, res) => {
    counts.requests++;
    const socket = req.socket as typeof req.socket & { served?: number; idleSince?: number };
    const idle = Date.now() - (socket.idleSince ?? Date.now());
    if (
      socket.served &&
      options.resetReused &&
      idle >= (options.resetIdleMs ?? 0) &&
      ++reused % options.resetReused === 0
    ) {
      counts.reset++;
      socket.resetAndDestroy();
      return;
    }
    res.on('finish', () => {
      socket.served = (socket.served ?? 0) + 1;
      socket.idleSince = Date.now();
    });
    // A Connection header set by hand leaves Node's `Keep-Alive: timeout=N` out.
    if (options.keepAliveHeader === false) res.setHeader('connection', 'keep-alive');
    if (options.shedEvery && counts.requests % options.shedEvery === 0) {
      counts.shed++;
      req.resume();
      res.writeHead(503, {
        'content-type': 'application/json',
        'retry-after': String(options.retryAfterS ?? 1),
      });
      res.end(JSON.stringify({ code: 'unavailable', message: 'shedding load', status: 503 }));
      return;
    }
    const headers = { ...req.headers };
    delete headers.connection;
    delete headers['keep-alive'];
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
        agent: false,
      },
      (answer) => {
        // The reference's own connection is this request's alone: its hop-by-hop headers stay.
        const kept = { ...answer.headers };
        delete kept.connection;
        delete kept['keep-alive'];
        res.writeHead(answer.statusCode ?? 502, kept);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  };
  const tls = options.tls;
  const server: Server = tls
    ? createHttpsServer(
        {
          key: tls.key,
          cert: tls.cert,
          ...(tls.clientCa
            ? { requestCert: true, rejectUnauthorized: true, ca: [tls.clientCa] }
            : {}),
        },
        handler,
      )
    : createServer(handler);
  server.keepAliveTimeout = options.keepAliveMs;
  server.on(tls ? 'secureConnection' : 'connection', () => counts.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `${tls ? 'https' : 'http'}://127.0.0.1:${port}${upstream.pathname}`,
    counts,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await reference.close();
    },
  };
}
