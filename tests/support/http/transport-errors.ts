/**
 * Why a request got no answer, in words: Playwright's errors carry node's codes and a call log
 * (with every request header, the key included), which say little to someone checking a target.
 * Only the first line of the error is read, and it is kept beside the explanation.
 */

/** The first line of a Playwright error, without its "apiRequestContext.fetch: " prefix. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').replace(/^apiRequestContext\.\w+:\s*/, '').trim();
}

const clientCertHint =
  'CONFORMANCE_CLIENT_CERT and CONFORMANCE_CLIENT_KEY to the PEM files of one it accepts';
const proxyHint = 'HTTPS_PROXY or HTTP_PROXY (NO_PROXY for a target reached directly)';

const causes: [RegExp, (timeoutMs: number) => string][] = [
  [/Timeout \d+ms exceeded/i, (ms) => `no answer within ${ms} ms`],
  // The guard's own words for a proxy's answer to CONNECT (proxy.ts), before node's codes.
  [
    /^proxy \S+ refused the credentials/,
    () =>
      `the proxy refused its credentials (407): check the user and password in ${proxyHint}, ` +
      'percent-encoded',
  ],
  [
    /^proxy \S+ could not reach/,
    () =>
      'the proxy could not reach the target: does its host name resolve, and is it reachable, ' +
      'from the proxy?',
  ],
  [/^proxy \S+ refused the tunnel/, () => `the proxy refused the tunnel to the target`],
  [/^proxy \S+ /, () => `the proxy cannot be reached: check ${proxyHint}`],
  // A target that asks for a client certificate (mutual TLS): refused without one (TLS 1.3 says
  // so; TLS 1.2 only fails the handshake), or refused the one presented.
  [
    /certificate required/i,
    () =>
      'TLS: the target asks for a client certificate and refused the handshake without one: ' +
      `set ${clientCertHint}`,
  ],
  [
    /alert handshake failure/i,
    () =>
      'TLS: the target refused the handshake; if it asks for a client certificate, set ' +
      clientCertHint,
  ],
  [
    /alert (bad certificate|unknown ca|certificate unknown|certificate expired|certificate revoked|unsupported certificate|access denied)/i,
    () =>
      'TLS: the target refused the client certificate (CONFORMANCE_CLIENT_CERT): it does not ' +
      'accept it',
  ],
  [/ECONNREFUSED/, () => 'connection refused: nothing listens at that host and port'],
  [/ENOTFOUND|EAI_AGAIN|EAI_NONAME|getaddrinfo/, () => 'DNS: the host name does not resolve'],
  [
    /wrong version number|packet length too long|EPROTO/i,
    () => 'TLS handshake failed: is the target plain http rather than https?',
  ],
  [
    /certificate|self[- ]signed|SSL|TLS|ERR_TLS|CERT_/i,
    () =>
      'TLS: the certificate is not trusted. For a test environment with a self-signed ' +
      'certificate, set CONFORMANCE_INSECURE_TLS=1 to accept it',
  ],
  [/^aborted$/, () => 'the connection closed before the whole answer arrived (truncated answer)'],
  // Node says "socket hang up" for a close (FIN) as for a reset before any byte of the answer.
  [/socket hang up/, () => 'the connection was closed or reset by the target before any answer'],
  [/ECONNRESET|EPIPE/, () => 'the connection was reset by the target'],
  [/EHOSTUNREACH|ENETUNREACH|ETIMEDOUT/, () => 'the host cannot be reached from this machine'],
  [/Max redirect count exceeded/, () => 'too many redirects'],
];

/** The cause in words ("connection refused: …"), or undefined when the error is not known here. */
export function transportCause(error: unknown, timeoutMs: number): string | undefined {
  const line = firstLine(error);
  return causes.find(([pattern]) => pattern.test(line))?.[1](timeoutMs);
}

/** "connection refused: … (connect ECONNREFUSED 127.0.0.1:9)", or the first line as it is. */
export function explainTransportError(error: unknown, timeoutMs: number): string {
  const line = firstLine(error);
  const cause = transportCause(error, timeoutMs);
  return cause ? `${cause} (${line})` : line;
}
