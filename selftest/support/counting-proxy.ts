/**
 * A pass-through proxy in front of a target that counts requests by method, so that a self-test
 * can tell what a run did to the target (how many create requests reached it).
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  /** The target's base address, through the proxy. */
  baseUrl: string;
  /** Requests seen, by method. */
  counts: Record<string, number>;
  close(): Promise<void>;
}

export async function startCountingProxy(targetBaseUrl: string): Promise<CountingProxy> {
  const target = new URL(targetBaseUrl);
  const counts: Record<string, number> = {};
  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    counts[method] = (counts[method] ?? 0) + 1;
    const upstream = request(
      { host: target.hostname, port: target.port, method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
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
