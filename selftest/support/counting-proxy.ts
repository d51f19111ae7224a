/**
 * A pass-through proxy in front of a target that counts requests by method, so that a self-test
 * can tell what a run did to the target (how many create requests reached it). It can also
 * rewrite chosen answers, body and headers, to make a target misbehave on purpose
 * (flaky-target.ts, echoing-target.ts).
 */
import {
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  createServer,
  request,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  /** The target's base address, through the proxy. */
  baseUrl: string;
  /** Requests seen, by method. */
  counts: Record<string, number>;
  close(): Promise<void>;
}

/**
 * For a request, how to rewrite its answer, or nothing: the body it returns is sent, with the
 * answer's headers as the function left them (their Content-Length set to the new body's).
 */
export type Rewrite = (
  request: IncomingMessage,
) => ((body: string, status: number, headers: OutgoingHttpHeaders) => string) | undefined;

export async function startCountingProxy(
  targetBaseUrl: string,
  rewrite?: Rewrite,
): Promise<CountingProxy> {
  const target = new URL(targetBaseUrl);
  const counts: Record<string, number> = {};
  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    counts[method] = (counts[method] ?? 0) + 1;
    const rewriteBody = rewrite?.(req);
    // A connection of its own for each request, without the client's hop-by-hop headers: a
    // kept-alive upstream connection can be closed by its idle timer as it is reused when the
    // machine is busy, and the request would fail for the proxy's sake.
    const headers = { ...req.headers };
    delete headers.connection;
    delete headers['keep-alive'];
    const upstream = request(
      { host: target.hostname, port: target.port, method, path: req.url, headers, agent: false },
      (answer) => {
        if (!rewriteBody) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const status = answer.statusCode ?? 502;
          const headers: OutgoingHttpHeaders = { ...answer.headers };
          delete headers['transfer-encoding'];
          const body = rewriteBody(Buffer.concat(chunks).toString('utf8'), status, headers);
          res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
          res.end(body);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return { ...(await listenOnLoopback(server, target.pathname)), counts };
}

/**
 * Starts a self-test's server in front of a target on a free port of 127.0.0.1: its base address
 * (the target's path on it), and how to stop it, its connections ended.
 */
export async function listenOnLoopback(
  server: Server,
  pathname: string,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
