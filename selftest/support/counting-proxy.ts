/**
 * A pass-through proxy in front of a target that counts requests by method, so that a self-test
 * can tell what a run did to the target (how many create requests reached it). It can also
 * rewrite chosen answers, to make a target misbehave on purpose (flaky-target.ts).
 */
import { type IncomingMessage, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  /** The target's base address, through the proxy. */
  baseUrl: string;
  /** Requests seen, by method. */
  counts: Record<string, number>;
  close(): Promise<void>;
}

/** For a request, how to rewrite the body of its answer (sent as application/json), or nothing. */
export type Rewrite = (request: IncomingMessage) => ((body: string) => string) | undefined;

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
    const upstream = request(
      { host: target.hostname, port: target.port, method, path: req.url, headers: req.headers },
      (answer) => {
        if (!rewriteBody) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = rewriteBody(Buffer.concat(chunks).toString('utf8'));
          res.writeHead(answer.statusCode ?? 502, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          });
          res.end(body);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
