/**
 * The response guard's TLS to an https target: the guard, not Playwright, speaks TLS to it (so
 * that it reads each answer as plaintext and bounds its decoded size as over plain http), and
 * verifies the target's certificate as Playwright would: Node's defaults (the system's CAs and
 * NODE_EXTRA_CA_CERTS, the host's name checked), unless the user accepts any certificate
 * (CONFORMANCE_INSECURE_TLS=1). It offers HTTP/1.1 only (ALPN): the guard reads HTTP/1.1. To
 * a target that asks for a client certificate it presents the user's (mutual TLS), if given.
 */
import net from 'node:net';
import tls from 'node:tls';

/** A TLS session a target gave, per host:port: the next connection there resumes it. */
export type Sessions = Map<string, Buffer>;

/** A client certificate and its key, PEM (CONFORMANCE_CLIENT_CERT, CONFORMANCE_CLIENT_KEY). */
export interface ClientCertificate {
  cert: string;
  key: string;
  /** Decrypts an encrypted key (CONFORMANCE_CLIENT_KEY_PASSPHRASE). */
  passphrase?: string;
}

/**
 * TLS to the target over `tcp` (connecting or connected: directly, or a proxy's tunnel), verified
 * with Node's defaults unless `insecureTls`. The server name is sent for a host name, not for an
 * IP address (RFC 6066); the certificate is checked against either.
 */
export function targetSide(
  tcp: net.Socket,
  host: string,
  authority: string,
  options: { insecureTls: boolean; clientCertificate?: ClientCertificate },
  sessions: Sessions,
): tls.TLSSocket {
  const session = sessions.get(authority);
  const client = options.clientCertificate;
  const socket = tls.connect({
    socket: tcp,
    host,
    ...(net.isIP(host) ? {} : { servername: host }),
    ALPNProtocols: ['http/1.1'],
    rejectUnauthorized: !options.insecureTls,
    ...(session ? { session } : {}),
    ...(client ? { cert: client.cert, key: client.key, passphrase: client.passphrase } : {}),
  });
  socket.on('session', (next: Buffer) => {
    sessions.delete(authority);
    sessions.set(authority, next);
    if (sessions.size > 100) sessions.delete(sessions.keys().next().value!);
  });
  return socket;
}
