/**
 * A forward proxy on 127.0.0.1 as companies run one: CONNECT only, with a user and password
 * (Proxy-Authorization: Basic), and its own name resolution: `hosts` maps the names only it
 * resolves (e.g. petstore.test) to addresses; a name it cannot resolve gets 502, as a proxy
 * answers. It counts the tunnels it opened, by host:port.
 */
import { createServer } from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ForwardProxy {
  /** http://user:password@127.0.0.1:port (the password percent-encoded). */
  url: string;
  /** The same without credentials. */
  plainUrl: string;
  tunnels: Record<string, number>;
  /** CONNECT requests refused for want of the right credentials. */
  refused: number;
  close(): Promise<void>;
}

export async function startForwardProxy(options: {
  user: string;
  password: string;
  hosts: Record<string, string>;
}): Promise<ForwardProxy> {
  const expected = `Basic ${Buffer.from(`${options.user}:${options.password}`).toString('base64')}`;
  const sockets = new Set<net.Socket>();
  const proxy: Partial<ForwardProxy> = { tunnels: {}, refused: 0 };
  const server = createServer((_req, res) => {
    res.writeHead(405, { 'content-type': 'text/plain' }).end('CONNECT only\n');
  });
  server.on('connect', (req, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (req.headers['proxy-authorization'] !== expected) {
      proxy.refused!++;
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\n' +
          'Content-Length: 0\r\n\r\n',
      );
      return;
    }
    const [host = '', port = ''] = (req.url ?? '').split(/:(?=\d+$)/);
    const address = net.isIP(host) ? host : options.hosts[host];
    if (address === undefined) {
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = net.connect({ host: address, port: Number(port) }, () => {
      proxy.tunnels![req.url!] = (proxy.tunnels![req.url!] ?? 0) + 1;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const credentials = `${encodeURIComponent(options.user)}:${encodeURIComponent(options.password)}`;
  proxy.url = `http://${credentials}@127.0.0.1:${port}`;
  proxy.plainUrl = `http://127.0.0.1:${port}`;
  proxy.close = async () => {
    for (const socket of sockets) socket.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return proxy as ForwardProxy;
}
