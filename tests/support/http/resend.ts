/**
 * When the response guard may send a request again: nothing that may have been applied is sent
 * twice. A kept-alive connection closes whenever its target (or a load balancer) decides, often
 * after an idle time it never announced, and a request sent as it closes meets the close, a reset
 * or the end of the connection, before any byte of its answer. RFC 9112 §9.3.1 leaves retrying to
 * RFC 9110 §9.2.2: a client SHOULD NOT retry a request that is not idempotent unless it can tell
 * that the request was never applied (and a proxy, which the guard is, MUST NOT).
 *
 * - An idempotent request (GET, HEAD, OPTIONS, TRACE, PUT, DELETE) that met the close on a reused
 *   connection is sent again once, on a new one: sent twice, it has the effect of once.
 * - Any request of which no byte was written (the connection was found closed first) is sent on a
 *   new one: the target never saw it.
 * - A request that is not idempotent (a create) and was written on a reused connection is not
 *   sent again: the target may have applied it. Its outcome is unknown, and that is no failure of
 *   the target's: a conformant target may close a kept-alive connection at any time (RFC 9112
 *   §9.6), and a request crossing that close is lost to any client. The check that sent it could
 *   not decide: it is blocked, saying so (http/client.ts), and never passes.
 * - On a new connection, a close or reset before any byte of the answer is the target's failure,
 *   as ever: no idle close explains it.
 *
 * So that a create seldom meets that close on a conformant target, the guard sends one on a
 * reused connection only while it cannot be stale: within `createReuseMs` of its last answer. Idle
 * closes come a second or more after the last answer (the self-test's conformant target closes at
 * 1 s without a word; gunicorn 2 s, Node 5 s, nginx 75 s, load balancers 60 s), and the target's
 * idle time when the create arrives is the guard's plus about a round trip: 250 ms leaves room
 * for round trips of several hundred ms below a 1 s close. The guard's idle time counts from when
 * the last answer may have arrived, not from when a process held up got to it (loop-clock.ts). Otherwise the create gets a new
 * connection, which costs a round trip (the TCP handshake; over https a resumed TLS handshake
 * too). A new connection for every create would make every create pay it, chains of creates one
 * after another included (the store grown past 100 pets), on the critical path of a remote target
 * (the benchmark's network figure, 23 round trips at 100 ms). With this rule a create that closely
 * follows an answer on its connection keeps it; only a create after a pause pays, which against a
 * target 100 ms away, whose connections pause longer, is still about half of them.
 */

/** Methods whose intended effect is the same sent twice as once (RFC 9110 §9.2.2). */
const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

export function idempotent(method: string): boolean {
  return idempotentMethods.has(method);
}

/**
 * A request that is not idempotent goes on a kept-alive connection only this soon after its last
 * answer (see above); later, on a new connection.
 */
export const createReuseMs = 250;

/** A request in flight whose connection closed or was reset before any byte of its answer. */
export interface Interrupted {
  method: string;
  /** Some of its bytes were handed to the connection: the target may have seen them. */
  written: boolean;
  /** The connection had served an answer before (a kept-alive one). */
  reused: boolean;
  /** It was sent again once already. */
  resent: boolean;
  /** Its bytes are kept, to send again (a request too long is not). */
  kept: boolean;
}

/**
 * What becomes of it: sent again on a new connection; its failure passed on (the target's, as
 * any reset); or not sent again, its outcome unknown (it may have been applied).
 */
export type AfterClose = 'send again' | 'pass on' | 'outcome unknown';

export function afterClose(request: Interrupted): AfterClose {
  if (request.resent || !request.kept) return 'pass on';
  if (!request.written) return 'send again';
  if (!request.reused) return 'pass on';
  return idempotent(request.method) ? 'send again' : 'outcome unknown';
}
