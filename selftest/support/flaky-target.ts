/**
 * A target flaky on purpose: a proxy in front of a conformant one whose first listPets without
 * query answers only the first 10 pets (LIST-LIMIT-DEFAULT broken once), every later request
 * passed through. Under --retries, the check of the default limit fails once and then passes:
 * what the report must call a flaky target.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FlakyTarget {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startFlakyTarget(targetBaseUrl: string): Promise<FlakyTarget> {
  const target = new URL(targetBaseUrl);
  let brokenOnce = false;
  const server = createServer((req, res) => {
    const breakThis = !brokenOnce && req.method === 'GET' && req.url === `${target.pathname}/pets`;
    if (breakThis) brokenOnce = true;
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        if (!breakThis) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          // The clean reference's ids are small: JSON.parse keeps them exact.
          const pets = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[];
          const body = JSON.stringify(pets.slice(0, 10));
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
