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

const causes: [RegExp, (timeoutMs: number) => string][] = [
  [/Timeout \d+ms exceeded/i, (ms) => `no answer within ${ms} ms`],
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
  [/ECONNRESET|socket hang up|EPIPE/, () => 'the connection was reset by the target'],
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
