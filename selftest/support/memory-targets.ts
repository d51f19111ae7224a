/**
 * Targets whose answers would take all the memory of the machine running the suite, for the
 * memory self-test. One HTTP server serves each behaviour at its own base addresses:
 * http://127.0.0.1:<port>/<behaviour>/v1 answers every request that way, the preflight included;
 * under /after-preflight-<behaviour>/v1 the preflight (GET /pets?limit=1) is answered with an
 * empty list, so that the run starts, and every other request gets a 401 that way:
 *
 * - `gzip-bomb`: 1 MB of gzip that inflates to 1 GiB of spaces;
 * - `endless`: a chunked body that never ends, written as fast as the socket takes it;
 * - `nested`: 200,000 nested arrays (`[[[…]]]`), valid JSON of 400 kB.
 *
 * The same behaviours are served over https, at https://127.0.0.1:<port2>/<behaviour>/v1, with a
 * self-signed certificate made for the occasion (`cert`: a run trusts it with NODE_EXTRA_CA_CERTS).
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { selfSignedCertificate } from './certificate.ts';

type Respond = (res: ServerResponse) => void;

let bomb: Buffer | undefined;
/** 1024 gzip members of 1 MiB of spaces each: one body that gunzip inflates to 1 GiB. */
const gzipBomb = () => {
  if (bomb) return bomb;
  const member = gzipSync(Buffer.alloc(1024 * 1024, ' '), { level: 9 });
  return (bomb = Buffer.concat(Array.from({ length: 1024 }, () => member)));
};

const nesting = 200_000;

const behaviours: Record<string, Respond> = {
  'gzip-bomb': (res) => {
    res.writeHead(401, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(gzipBomb());
  },
  endless: (res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    const piece = Buffer.alloc(64 * 1024, ' ');
    const more = () => {
      while (!res.destroyed && res.write(piece));
    };
    res.on('drain', more);
    more();
  },
  nested: (res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(`${'['.repeat(nesting)}${']'.repeat(nesting)}`);
  },
};

export const memoryBehaviours = Object.keys(behaviours);

export interface MemoryTarget {
  /** The base address of a behaviour, over http or https. */
  baseUrl(behaviour: string, scheme?: 'http' | 'https'): string;
  /** The https server's certificate (PEM), its own CA. */
  cert: string;
  close(): Promise<void>;
}

export async function startMemoryTarget(): Promise<MemoryTarget> {
  const route = (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/([a-z-]+)\/v1(\/.*)$/.exec(req.url ?? '');
    const name = match?.[1] ?? '';
    const respond = behaviours[name.replace(/^after-preflight-/, '')];
    const preflight = req.method === 'GET' && match?.[2] === '/pets?limit=1';
    if (!respond) {
      res.writeHead(404).end();
    } else if (preflight && name.startsWith('after-preflight-')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    } else {
      respond(res);
    }
  };
  const credentials = selfSignedCertificate('127.0.0.1', ['127.0.0.1']);
  const servers = { http: createServer(route), https: createTlsServer(credentials, route) };
  const ports = { http: 0, https: 0 };
  for (const scheme of ['http', 'https'] as const) {
    const server = servers[scheme];
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ports[scheme] = (server.address() as AddressInfo).port;
  }
  return {
    baseUrl: (behaviour, scheme = 'http') =>
      `${scheme}://127.0.0.1:${ports[scheme]}/${behaviour}/v1`,
    cert: credentials.cert,
    close: async () => {
      for (const server of Object.values(servers)) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
