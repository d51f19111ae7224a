/**
 * TLS interception for the response guard: an https tunnel is ended in the guard on both sides,
 * as mitmproxy does, so that the guard reads the answer as plaintext and bounds its decoded size
 * as it does over plain http (with TLS end to end, it would see only encrypted bytes).
 *
 * - To the client (Playwright), the guard answers the TLS handshake itself, with a certificate it
 *   makes once a process (certificate.ts): no key is stored anywhere. The request context accepts
 *   it with `ignoreHTTPSErrors` (only for this hop: see `guardSide`).
 * - To the target, the guard opens its own TLS connection and verifies the target's certificate
 *   as Playwright did: Node's defaults (the system's CAs and NODE_EXTRA_CA_CERTS, the host's name
 *   checked), unless the user accepts any certificate (CONFORMANCE_INSECURE_TLS=1).
 *
 * Both sides offer HTTP/1.1 only (ALPN): the guard reads HTTP/1.1.
 */
import net from 'node:net';
import tls from 'node:tls';
import { type Credentials, selfSignedCertificate } from './certificate.ts';

let credentials: Credentials | undefined;

/** The guard's TLS identity, made on first use: a new key each process, never written down. */
export function guardSecureContext(): tls.SecureContext {
  credentials ??= selfSignedCertificate('conformance response guard', ['127.0.0.1']);
  return tls.createSecureContext(credentials);
}

/** True when a tunnel's first bytes open a TLS handshake (a handshake record: 0x16). */
export function opensTls(first: Buffer): boolean {
  return first[0] === 0x16;
}

/**
 * The client's side of an intercepted tunnel: TLS with the guard's certificate. The client's
 * bytes already read (the ClientHello) must be back in `client` (`unshift`): Node reads them first.
 */
export function guardSide(client: net.Socket, secureContext: tls.SecureContext): tls.TLSSocket {
  return new tls.TLSSocket(client, { isServer: true, secureContext, ALPNProtocols: ['http/1.1'] });
}

/** A TLS session a target gave, per host:port: the next connection there resumes it. */
export type Sessions = Map<string, Buffer>;

/**
 * The target's side: TLS over `tcp` (connecting or connected), verified with Node's defaults
 * unless `insecure`. The server name is sent for a host name, not for an IP address (RFC 6066);
 * the certificate is checked against either.
 */
export function targetSide(
  tcp: net.Socket,
  host: string,
  authority: string,
  insecure: boolean,
  sessions: Sessions,
): tls.TLSSocket {
  const session = sessions.get(authority);
  const socket = tls.connect({
    socket: tcp,
    host,
    ...(net.isIP(host) ? {} : { servername: host }),
    ALPNProtocols: ['http/1.1'],
    rejectUnauthorized: !insecure,
    ...(session ? { session } : {}),
  });
  socket.on('session', (next: Buffer) => {
    sessions.delete(authority);
    sessions.set(authority, next);
    if (sessions.size > 100) sessions.delete(sessions.keys().next().value!);
  });
  return socket;
}
