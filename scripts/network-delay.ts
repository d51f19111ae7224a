/**
 * A target as far away as a network makes it, for the benchmark: a TCP relay on 127.0.0.1 in
 * front of a local server that delays what a network delays. A new connection costs a round trip
 * (the TCP handshake) before its first byte goes on, and every piece of data, either way, half a
 * round trip. Unlike a server that answers later (the reference's latencyMs), it charges what a
 * client does with its connections: one opened per request pays a round trip more than one kept
 * alive, and a TLS handshake over it pays its own round trips.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface DelayingRelay {
  /** host:port of the relay, for a base address in place of the server's. */
  authority: string;
  close(): Promise<void>;
}

export async function startDelayingRelay(
  target: { host: string; port: number },
  roundTripMs: number,
): Promise<DelayingRelay> {
  const half = roundTripMs / 2;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  // Equal delays keep the order of the pieces: timers of one duration fire in the order set.
  const later = (action: () => void) => setTimeout(action, half);
  const relay = (from: net.Socket, to: net.Socket) => {
    from.on('data', (piece: Buffer) => later(() => to.destroyed || to.write(piece)));
    from.on('end', () => later(() => to.end()));
    from.on('error', () => later(() => to.destroy()));
    from.on('close', () => later(() => to.destroy()));
  };
  const server = net.createServer((client) => {
    track(client);
    client.pause();
    client.setNoDelay(true);
    setTimeout(() => {
      if (client.destroyed) return;
      const upstream = net.connect({ ...target, noDelay: true }, () => client.resume());
      track(upstream);
      relay(client, upstream);
      relay(upstream, client);
    }, roundTripMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    authority: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
