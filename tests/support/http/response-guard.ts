/**
 * The response guard: a gateway on 127.0.0.1, one per worker (and one for the preflight), through
 * which the request context reaches the target. Playwright reads and decodes an answer whole
 * before the suite sees a byte, and has no option to bound either: a gzip bomb or an endless body
 * would take the machine. The guard counts each answer's body as it passes, raw and decoded, and
 * cuts the connection when either grows past the limit; the client then asks the guard why its
 * request failed (`failureOf`) and fails the check with the limit named.
 *
 * The client sends each request to the guard's address for the target's origin (`via`): the same
 * path and query on a port of 127.0.0.1 that stands for that origin. Each connection Playwright
 * opens there is served by one the guard opens to the target at a time, so that Playwright's
 * kept-alive connections are the target's too: one TCP connection (and, over https, one TLS
 * handshake) serves many requests, as it would without the guard. A connection the target closed,
 * or said it would close, is replaced for the next request. A request that meets the close of a
 * reused one before its answer starts is sent again once, on a new one (`resent` counts them),
 * only when that cannot apply it twice (resend.ts): an idempotent one, or one of which nothing was
 * written; a create is sent on a reused connection only soon after its last answer, and one that
 * met the close all the same is not sent again: the client is told its outcome is unknown.
 *
 * The guard speaks TLS to an https target itself, verifying its certificate as Playwright would
 * (target-tls.ts), and reads the answer as plaintext. The bytes are forwarded as they come in both
 * directions, unchanged but for one thing: each request's Host header names the target, not the
 * guard (and a request the suite asks to be written in pieces is: `segmentsHeader`). Each answer's head is read (status, framing, Content-Encoding) and its body counted as
 * sent and as decoded, with the decoder Playwright uses. A piece of a compressed body is forwarded once it is decoded and counted, so
 * Playwright never receives the piece that would inflate past the limit. Bytes that are not
 * HTTP/1.1 (an upgrade, a head too long) are counted as they come, a turn (from a request to the
 * next) at a time.
 */
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import zlib from 'node:zlib';
import { type Proxies, openTunnel, proxyFor } from './proxy.ts';
import { earliestArrival, startLoopClock } from './loop-clock.ts';
import { afterClose, createReuseMs, idempotent } from './resend.ts';
import { type ClientCertificate, type Sessions, targetSide } from './target-tls.ts';

/**
 * A request header the guard reads and removes, never sent on: the request is written to the target
 * in pieces, `head=H; body=B; gap=MS` (the head cut in H, the body in B, MS apart), as TCP may
 * deliver it (the hostile-input catalogue's class `segments`).
 */
export const segmentsHeader = 'x-conformance-segments';

/**
 * A request header the guard reads and removes, never sent on: bytes no client library sends in a
 * field value (control characters, RFC 9110 §5.5), put in place of placeholders the client sent,
 * `name i=hh j=hh; name2 k=hh` (offsets in the named field's value, bytes in hex).
 */
export const headerBytesHeader = 'x-conformance-header-bytes';

/** How a request is written in pieces: its head cut in `head`, its body in `body`, `gapMs` apart. */
export interface Segments {
  head: number;
  body: number;
  gapMs: number;
  /** The body cut once, after the first byte of its first character of several bytes. */
  inChar?: boolean;
}

/** Where a request is cut, in the bytes handed on, and how long apart its pieces are written. */
export interface Cuts {
  offsets: number[];
  gapMs: number;
}

/** Bytes of a turn beyond the limit allowed for the answer's head, when it cannot be read. */
export const headRoom = 64 * 1024;
/** A head longer than this is not parsed (Node's own client refuses one beyond 16 KiB). */
const maxHead = 64 * 1024;
/** Cuts kept for the client to ask about: the latest ones. */
const keptCuts = 100;
/** A request longer than this is not kept to be sent again (the suite's are far shorter). */
const maxReplayBytes = 1024 * 1024;

export interface ResponseGuard {
  /**
   * The address through which the request context reaches `url`: the same path and query, on the
   * guard's port for the url's origin (opened on first use).
   */
  via(url: string): Promise<string>;
  /**
   * Why the guard ended this request without an answer (an answer cut past the limit, a create
   * not sent again), once; undefined when it did not.
   */
  failureOf(method: string, url: string): GuardFailure | undefined;
  /** Why the guard's last connection to the target of `url` failed (node's message), if it did. */
  connectErrorOf(url: string): string | undefined;
  /**
   * Requests sent again on a new connection, since the guard started: each met a reset or a close
   * on a kept-alive connection before any byte of its answer, and was idempotent, or had not been
   * written (resend.ts).
   */
  readonly resent: number;
  close(): Promise<void>;
}

/** Why the guard ended a request without an answer. */
export interface GuardFailure {
  why: string;
  /** A create written on a kept-alive connection that closed before its answer: maybe applied. */
  outcomeUnknown?: true;
  /** Not sent again, though nothing of it was written: the write budget is spent (`mayResend`). */
  budgetSpent?: true;
  /** Never sent: the target refused the connection (nothing listens at its address). */
  notSent?: true;
}

/** One request seen on a connection: what its answer is matched to. */
interface Sent {
  method: string;
  path: string;
}

export interface GuardOptions {
  /** Accept any certificate of an https target (CONFORMANCE_INSECURE_TLS=1). */
  insecureTls: boolean;
  /** Presented to an https target that asks for one (CONFORMANCE_CLIENT_CERT, _KEY). */
  clientCertificate?: ClientCertificate;
  /** The forward proxies of the environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY). */
  proxies?: Proxies;
  /**
   * How host names are resolved (default: the system's). The self-tests pass their own, so that
   * a name reached directly resolves without a query leaving the machine.
   */
  lookup?: net.LookupFunction;
  /**
   * Asked before a request that is not idempotent is sent again (nothing of it was written): false
   * keeps it from being sent, the write budget being spent. A create sent again is another create
   * request, counted against the budget as the first was (the suite's fixture reserves one).
   */
  mayResend?: (request: { method: string; url: string }) => boolean;
}

/** Where an origin is reached: its host as a socket takes it, host:port, the Host header. */
interface Origin {
  https: boolean;
  host: string;
  port: number;
  /** host:port, the port always written: the key of cuts and connection errors. */
  authority: string;
  /** The Host header a request to it carries (the port only when not the default). */
  hostHeader: string;
  /** The path and query of the address it was read from. */
  path: string;
}

function originOf(url: string): Origin | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const https = parsed.protocol === 'https:';
  const port = Number(parsed.port || (https ? 443 : 80));
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const path = `${parsed.pathname}${parsed.search}`;
  return { https, host, port, authority: `${host}:${port}`, hostHeader: parsed.host, path };
}

export async function startResponseGuard(
  maxBytes: number,
  options: GuardOptions,
): Promise<ResponseGuard> {
  startLoopClock();
  // Cuts by request, each taken once (identical requests may be cut side by side); the last
  // connection error by host, until a connection there succeeds.
  const cuts = new Map<string, GuardFailure[]>();
  const connectErrors = new Map<string, string>();
  const record = (key: string, why: GuardFailure) => {
    const list = cuts.get(key) ?? [];
    cuts.delete(key);
    cuts.set(key, [...list, why]);
    if (cuts.size > keptCuts) cuts.delete(cuts.keys().next().value!);
  };
  const take = (key: string) => {
    const list = cuts.get(key);
    const why = list?.shift();
    if (list?.length === 0) cuts.delete(key);
    return why;
  };
  const counters = { resent: 0 };
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const sessions: Sessions = new Map();
  /** One listening address per origin (protocol, host and port): its loopback origin. */
  const listeners = new Map<string, Promise<string>>();
  const servers: net.Server[] = [];

  /**
   * A connection of the client on an origin's port, served by one connection to the target at a
   * time (a link): the first opened with it, a new one for a request when the target has closed
   * the last one or is about to (see `usable`), and for a create when the last one has been idle
   * too long to be trusted with it (resend.ts). A request that meets a reset or a close on a link
   * before any byte of its answer is sent again once on a new link, passed on as the target's
   * failure, or ended with its outcome unknown, as `afterClose` says.
   */
  function pair(client: net.Socket, origin: Origin) {
    const { authority } = origin;
    client.setNoDelay(true);
    track(client);
    let link: Link | undefined;
    // The request in flight: what it is, whether any of its bytes went out, and its bytes, kept
    // until its answer starts (what a resend sends).
    let current: Sent | undefined;
    let written = false;
    let replay: Buffer[] | undefined;
    let replayBytes = 0;
    let resentOnce = false;
    // A create's bytes, held for one turn of the event loop before they go on a reused link: a
    // close that had already arrived is handled first, and the create is found not written.
    let held: Buffer[] | undefined;
    const answers = new Answers(maxBytes, origin.hostHeader, (path, method, why) => {
      record(cutKey(method, authority, path), { why });
      client.destroy();
      link?.destroy();
    });

    const open = (): Link => {
      const next = new Link(origin, options, sessions, track);
      link?.destroy();
      link = next;
      next.onError = (error) => failed(next, error);
      next.onEnd = () => ended(next);
      next.onData = (chunk) => fromTarget(next, chunk);
      next.onDrain = () => client.resume();
      next.onReached = () => connectErrors.delete(authority);
      client.resume();
      return next;
    };

    /**
     * The link went away: handled when it is not the current one, or when no request was on it
     * (the next one gets a new link), or when its request could be sent again on a new one.
     */
    const handled = (from: Link, how: string): boolean => {
      if (from !== link) return true;
      if (answers.idle) {
        link = undefined;
        from.destroy();
        return true;
      }
      return resend(from, how);
    };

    /** The link failed (reset, refused, TLS): a resend, or the failure passed on. */
    const failed = (from: Link, error: Error) => {
      if (handled(from, 'was reset')) return;
      // A connection that could not be made (refused, or over https a certificate not trusted,
      // a client certificate refused) is kept for the client to explain (connectErrorOf); a
      // reset is passed on as a reset.
      if (!from.reached || tlsRefusal(error)) connectErrors.set(authority, error.message);
      // Refused before any of the request could be written: nothing listens (any more).
      if (!from.reached && current && (error as NodeJS.ErrnoException).code === 'ECONNREFUSED') {
        record(cutKey(current.method, authority, current.path), {
          why: `connection refused: nothing listens at ${authority} (${error.message})`,
          notSent: true,
        });
      }
      from.destroy();
      if (!client.destroyed) client.resetAndDestroy();
    };

    /** The target closed the link: between requests, the next one gets a new link. */
    const ended = (from: Link) => {
      if (handled(from, 'closed')) return;
      void answers.settled.then(() => client.end());
    };

    /** Bytes of the request in flight, to the current link (a new one if there is none). */
    const send = (bytes: Buffer) => {
      written = true;
      if (!(link ?? open()).write(bytes)) client.pause();
    };

    /** A request written in pieces, each `gapMs` after the one before, while its link lasts. */
    const sendInPieces = (bytes: Buffer, cuts: Cuts) => {
      const bounds = [0, ...cuts.offsets, bytes.length];
      const pieces = bounds.slice(1).map((end, index) => bytes.subarray(bounds[index], end));
      const on = link ?? open();
      send(pieces[0]!);
      // Each piece a gap after the one before, from the time the target is reached (a far one's
      // connection takes longer than a gap). One timer at a time: timers of different delays due
      // together (a process held up) may run in any order, which would write the pieces out of it.
      const next = (index: number) => {
        if (index >= pieces.length) return;
        setTimeout(() => {
          if (link !== on || client.destroyed) return;
          send(pieces[index]!);
          next(index + 1);
        }, cuts.gapMs);
      };
      on.whenReached(() => next(1));
    };

    /**
     * The request in flight met its link's end (a reset, a close) before any byte of its answer:
     * sent again once on a new link, or not (resend.ts). True when it was sent again.
     */
    const resend = (from: Link, how: string): boolean => {
      if (from.answering || !current) return false;
      const method = current.method;
      const decision = afterClose({
        method,
        written,
        reused: from.served > 0,
        resent: resentOnce,
        kept: held !== undefined || replay !== undefined,
      });
      if (decision === 'outcome unknown') {
        record(cutKey(method, authority, current.path), {
          why:
            `the connection ${how} after the request was sent, before any byte of its answer ` +
            `(a kept-alive connection, its last answer ${Date.now() - from.idleSince} ms before ` +
            'the close): the target may have applied it, so it was not sent again (RFC 9110 §9.2.2)',
          outcomeUnknown: true,
        });
        return false;
      }
      if (decision === 'pass on') return false;
      const url = `${origin.https ? 'https' : 'http'}://${origin.hostHeader}${current.path}`;
      if (!idempotent(method) && options.mayResend?.({ method, url }) === false) {
        held = undefined;
        record(cutKey(method, authority, current.path), {
          why:
            `not sent: its kept-alive connection ${how} before any of it was written, and the ` +
            'write budget is spent, so it was not sent on a new one',
          budgetSpent: true,
        });
        return false;
      }
      resentOnce = true;
      counters.resent++;
      const bytes = Buffer.concat(held ?? replay ?? []);
      held = undefined;
      open();
      send(bytes);
      return true;
    };

    /**
     * A create on a reused link waits one turn: a close that arrived with it is handled first, and
     * sends it on a new link (`resend`: nothing of it was written); else it goes on this one.
     */
    const release = (on: Link) => {
      const bytes = held;
      held = undefined;
      if (!bytes || client.destroyed) return;
      // Idle too long meanwhile (a busy machine): a new link, as at the request's start.
      if (link !== on || !on.usable(createReuseMs)) open();
      for (const piece of bytes) send(piece);
    };

    const fromTarget = (from: Link, chunk: Buffer) => {
      if (from !== link) return;
      // The answer has started: the request cannot be sent again.
      replay = undefined;
      replayBytes = 0;
      from.answering = true;
      from.pause();
      const before = answers.completed;
      void answers.fromTarget(chunk).then((forward) => {
        if (!forward || client.destroyed) return;
        if (answers.completed > before) from.answered(answers.lastHints);
        if (client.write(chunk)) from.resume();
        else client.once('drain', () => from.resume());
      });
    };

    client.on('error', () => link?.destroy());
    client.on('close', () => link?.destroy());
    client.on('data', (chunk: Buffer) => {
      const { forward, started, cuts } = answers.fromClient(chunk);
      if (forward.length === 0) return;
      if (started) {
        current = started;
        written = false;
        replay = [];
        replayBytes = 0;
        resentOnce = false;
        // A create goes on a kept-alive link only soon after its last answer (resend.ts).
        const create = !idempotent(started.method);
        // A request in pieces goes on a new link: its pieces are not held for a turn.
        if (cuts || !link?.usable(create ? createReuseMs : undefined)) open();
        else if (create && link.served > 0) {
          held = [];
          const on = link;
          setImmediate(() => release(on));
        }
      }
      if (replay) {
        replayBytes += forward.length;
        if (replayBytes > maxReplayBytes) replay = undefined;
        else replay.push(forward);
      }
      if (held) held.push(forward);
      else if (cuts) sendInPieces(forward, cuts);
      // What the client sends before the target's connection is made waits in the link's socket.
      else send(forward);
    });
    client.on('end', () => link?.end());
  }

  function listen(origin: Origin): Promise<string> {
    const server = net.createServer((client) => pair(client, origin));
    servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      });
    });
  }

  return {
    async via(url) {
      const origin = originOf(url);
      if (!origin) return url;
      const key = `${origin.https ? 'https' : 'http'}://${origin.authority}`;
      let local = listeners.get(key);
      if (!local) listeners.set(key, (local = listen(origin)));
      return `${await local}${origin.path}`;
    },
    failureOf(method, url) {
      const origin = originOf(url);
      if (!origin) return undefined;
      return (
        take(cutKey(method, origin.authority, origin.path)) ??
        take(cutKey('', origin.authority, ''))
      );
    },
    get resent() {
      return counters.resent;
    },
    connectErrorOf(url) {
      const authority = originOf(url)?.authority;
      return authority === undefined ? undefined : connectErrors.get(authority);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
    },
  };
}

/** What an answer's head says of its connection's future. */
export interface ConnectionHints {
  /** `Connection: close`, or HTTP/1.0 without keep-alive: the target closes it after. */
  close: boolean;
  /** `Keep-Alive: timeout=N`: the target closes it after N seconds idle. */
  keepAliveMs?: number;
}

/** Of a kept-alive connection's idle timeout, the part not relied on (clocks and networks lag). */
function idleMargin(keepAliveMs: number): number {
  return Math.min(1000, keepAliveMs / 2);
}

/**
 * One connection of the guard to the target (over https, its TLS), serving one client connection
 * a request at a time. It knows whether it may serve the next request: not once the target closed
 * it or said it would, nor once idle for about as long as the target keeps an idle one.
 */
class Link {
  readonly tcp: net.Socket;
  /** What carries the target's bytes: the TCP connection, or the TLS over it; once tunneled. */
  private socket?: net.Socket;
  /** Bytes written before the socket is ready (a proxy's tunnel being opened). */
  private queued: Buffer[] = [];
  private ending = false;
  /** The connection was made (over https, the handshake done). */
  reached = false;
  private readonly onceReached: (() => void)[] = [];

  /** Calls `then` once the target is reached (at once when it is). */
  whenReached(then: () => void): void {
    if (this.reached) then();
    else this.onceReached.push(then);
  }
  /** Answers completed on it. */
  served = 0;
  /** An answer is being received. */
  answering = false;
  private gone = false;
  private closing = false;
  /** When its last answer ended (or it was opened): when its last byte may have arrived. */
  idleSince = Date.now();
  /** The earliest its last bytes read may have arrived (loop-clock.ts). */
  private arrived = Date.now();
  private keepAliveMs?: number;
  onError: (error: Error) => void = () => {};
  onEnd: () => void = () => {};
  onData: (chunk: Buffer) => void = () => {};
  onDrain: () => void = () => {};
  onReached: () => void = () => {};

  constructor(
    private readonly origin: Origin,
    private readonly options: GuardOptions,
    private readonly sessions: Sessions,
    private readonly track: (socket: net.Socket) => void,
  ) {
    const proxy = proxyFor(options.proxies, origin.https, origin.host, origin.port);
    const to = proxy ?? origin;
    const lookup = options.lookup ? { lookup: options.lookup } : {};
    this.tcp = net.connect({ host: to.host, port: to.port, noDelay: true, ...lookup });
    track(this.tcp);
    let tunneling = proxy !== undefined;
    // While a proxy opens the tunnel, its errors are openTunnel's to tell (`proxy …`).
    this.tcp.on('error', (error) => {
      if (!tunneling) this.fail(error);
    });
    if (!proxy) {
      this.attach(false);
      return;
    }
    openTunnel(this.tcp, proxy, origin.host, origin.port, (error) => {
      tunneling = false;
      if (error) this.fail(error);
      else this.attach(true);
    });
  }

  private failed = false;
  private fail(error: Error): void {
    this.gone = true;
    if (this.failed) return;
    this.failed = true;
    this.onError(error);
  }

  /** The target's side, once its TCP connection (or a proxy's tunnel to it) is there. */
  private attach(tunneled: boolean): void {
    const { origin, options } = this;
    const socket = origin.https
      ? targetSide(this.tcp, origin.host, origin.authority, options, this.sessions)
      : this.tcp;
    this.socket = socket;
    if (socket !== this.tcp) {
      this.track(socket);
      socket.on('error', (error) => this.fail(error));
    }
    const reached = () => {
      this.reached = true;
      this.onReached();
      for (const then of this.onceReached.splice(0)) then();
    };
    if (origin.https) socket.once('secureConnect', reached);
    else if (tunneled) queueMicrotask(reached);
    else socket.once('connect', reached);
    socket.on('data', (chunk: Buffer) => {
      this.arrived = earliestArrival();
      this.onData(chunk);
    });
    socket.on('drain', () => this.onDrain());
    socket.on('end', () => {
      this.gone = true;
      this.onEnd();
    });
    socket.on('close', () => (this.gone = true));
    for (const bytes of this.queued) socket.write(bytes);
    this.queued = [];
    if (this.ending) socket.end();
  }

  /** Whether the next request may go on it; `maxIdleMs`: only this soon after its last answer. */
  usable(maxIdleMs?: number): boolean {
    if (this.gone || this.closing || this.socket?.destroyed) return false;
    const idle = Date.now() - this.idleSince;
    if (maxIdleMs !== undefined && this.served > 0 && idle > maxIdleMs) return false;
    if (this.keepAliveMs === undefined) return true;
    return idle < this.keepAliveMs - idleMargin(this.keepAliveMs);
  }

  /** An answer was completed on it, with what its head said of the connection. */
  answered(hints: ConnectionHints): void {
    this.served++;
    this.answering = false;
    // Dated from when the answer may have arrived, not from when a busy process got to it: the
    // target's idle clock started then.
    this.idleSince = this.arrived;
    if (hints.close) this.closing = true;
    if (hints.keepAliveMs !== undefined) this.keepAliveMs = hints.keepAliveMs;
  }

  write(bytes: Buffer): boolean {
    if (this.socket) return this.socket.write(bytes);
    this.queued.push(bytes);
    return true;
  }

  end(): void {
    if (this.socket) this.socket.end();
    else this.ending = true;
  }

  pause(): void {
    this.socket?.pause();
  }

  resume(): void {
    this.socket?.resume();
  }

  destroy(): void {
    this.gone = true;
    this.onError = this.onEnd = this.onData = this.onDrain = this.onReached = () => {};
    this.socket?.destroy();
    this.tcp.destroy();
  }
}

/** A TLS alert from the target after the handshake (TLS 1.3: a client certificate refused). */
function tlsRefusal(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return /^ERR_SSL_/.test(code) || /alert/i.test(error.message);
}

/** A request's key: method, host:port, path. */
function cutKey(method: string, authority: string, path: string): string {
  return `${method.toUpperCase()} ${authority}${path}`;
}

type Framing =
  | { kind: 'head' }
  | { kind: 'length'; left: number }
  | { kind: 'chunk-size'; line: string }
  | { kind: 'chunk-data'; left: number }
  | { kind: 'chunk-end'; left: number }
  | { kind: 'trailers'; line: string }
  | { kind: 'until-close' }
  /** Bytes not understood as HTTP/1.1 (an upgrade, a head too long): the turn is counted. */
  | { kind: 'opaque' };

/**
 * One connection's traffic: the requests sent on it (each head given the target's Host), and the
 * answer being received.
 */
class Answers {
  private readonly sent: Sent[] = [];
  private request: Buffer = Buffer.alloc(0);
  private requestBodyLeft = 0;
  private clientOpaque = false;
  /** A request to write in pieces, held until whole. */
  private inPieces?: Segments & { bytes: Buffer[]; started?: Sent };
  private framing: Framing = { kind: 'head' };
  private head = Buffer.alloc(0);
  private status = 0;
  private raw = 0;
  private decoded = 0;
  private decoder?: Decoder;
  private turn = 0;
  private hints: ConnectionHints = { close: false };
  /** The Content-Length of the answer being received, when it gave one. */
  private declared: number | undefined;
  /** The last answer completed: its request, and the Content-Length it declared. */
  private lastAnswered?: { request: Sent | undefined; length: number | undefined };
  /** Answers completed on the connection, and what the last one's head said of it. */
  completed = 0;
  lastHints: ConnectionHints = { close: false };
  /** Settles when the piece being counted has been: the end is forwarded after it. */
  settled: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly maxBytes: number,
    /** The Host header every request is sent with: the target's. */
    private readonly hostHeader: string,
    private readonly cut: (path: string, method: string, why: string) => void,
  ) {}

  /**
   * No request is in flight: none sent unanswered, no body or answer left to come. A new request
   * may go on a new connection to the target.
   */
  get idle(): boolean {
    return (
      this.sent.length === 0 &&
      this.requestBodyLeft === 0 &&
      !this.clientOpaque &&
      this.framing.kind === 'head' &&
      this.head.length === 0
    );
  }

  /**
   * Bytes of the client: the requests, their heads read to pair answers with them. Returns the
   * bytes to send on (a head once whole, its Host the target's; a body as it comes), and the
   * request they start, when none was in flight (`started`).
   */
  fromClient(chunk: Buffer): { forward: Buffer; started?: Sent; cuts?: Cuts } {
    this.turn = 0;
    if (this.clientOpaque) return { forward: chunk };
    const forward: Buffer[] = [];
    let started: Sent | undefined;
    let cuts: Cuts | undefined;
    let rest = chunk;
    // A request in pieces, whole: handed on with where to cut it.
    const release = () => {
      const held = this.inPieces!;
      this.inPieces = undefined;
      const [head, ...body] = held.bytes;
      const bodyLength = body.reduce((sum, piece) => sum + piece.length, 0);
      // Inside a character: after the lead byte of the first one of several bytes.
      const lead = held.inChar ? Buffer.concat(body).findIndex((byte) => byte >= 0xc0) : -1;
      const base = forward.reduce((sum, piece) => sum + piece.length, 0);
      const at = (length: number, count: number) =>
        Array.from({ length: count - 1 }, (_, index) =>
          Math.floor((length * (index + 1)) / count),
        ).filter((offset) => offset > 0 && offset < length);
      cuts = {
        offsets: [
          ...at(head!.length, held.head),
          ...(bodyLength > 0 ? [head!.length] : []),
          ...(lead >= 0 ? [lead + 1] : at(bodyLength, held.body)).map(
            (offset) => head!.length + offset,
          ),
        ].map((offset) => base + offset),
        gapMs: held.gapMs,
      };
      forward.push(...held.bytes);
      started ??= held.started;
    };
    while (rest.length > 0) {
      if (this.requestBodyLeft > 0) {
        const taken = Math.min(this.requestBodyLeft, rest.length);
        this.requestBodyLeft -= taken;
        if (this.inPieces) this.inPieces.bytes.push(rest.subarray(0, taken));
        else forward.push(rest.subarray(0, taken));
        rest = rest.subarray(taken);
        if (this.inPieces && this.requestBodyLeft === 0) release();
        continue;
      }
      this.request = Buffer.concat([this.request, rest]);
      rest = Buffer.alloc(0);
      const end = this.request.indexOf('\r\n\r\n');
      if (end < 0) {
        if (this.request.length > maxHead) this.passThrough(forward);
        break;
      }
      const lines = this.request.subarray(0, end).toString('latin1').split('\r\n');
      const [method = '', path = ''] = (lines[0] ?? '').split(' ');
      const request = { method, path };
      const starts = forward.length === 0 && this.idle;
      this.sent.push(request);
      const pieces = segmentsOf(headerValues(lines.slice(1), segmentsHeader)[0]);
      const headers = withHeaderBytes(
        lines.slice(1).filter((line) => !/^(host|x-conformance-segments)\s*:/i.test(line)),
      );
      const head = Buffer.from(
        `${[lines[0], `Host: ${this.hostHeader}`, ...headers].join('\r\n')}\r\n\r\n`,
        'latin1',
      );
      if (pieces)
        this.inPieces = { ...pieces, bytes: [head], ...(starts ? { started: request } : {}) };
      else {
        if (starts) started = request;
        forward.push(head);
      }
      rest = this.request.subarray(end + 4);
      this.request = Buffer.alloc(0);
      // A body in chunks (Playwright sends none): not followed, the rest passes as it comes.
      if (/chunked/i.test(headerValues(headers, 'transfer-encoding').join(','))) {
        if (this.inPieces) release();
        this.request = rest;
        this.passThrough(forward);
        break;
      }
      const length = headerValues(headers, 'content-length')[0];
      this.requestBodyLeft = Number(length ?? 0) || 0;
      if (this.inPieces && this.requestBodyLeft === 0) release();
    }
    return {
      forward: Buffer.concat(forward),
      ...(started ? { started } : {}),
      ...(cuts ? { cuts } : {}),
    };
  }

  /** From here on the client's bytes are forwarded unread (the answers are still counted). */
  private passThrough(forward: Buffer[]): void {
    this.clientOpaque = true;
    forward.push(this.request);
    this.request = Buffer.alloc(0);
  }

  /** Bytes of the target: false when the answer went past the limit and the tunnel is cut. */
  fromTarget(chunk: Buffer): Promise<boolean> {
    const counted = this.count(chunk);
    this.settled = counted;
    return counted;
  }

  private async count(chunk: Buffer): Promise<boolean> {
    this.turn += chunk.length;
    let rest = chunk;
    while (rest.length > 0) {
      const framing = this.framing;
      switch (framing.kind) {
        case 'opaque':
          if (this.turn > this.maxBytes + headRoom) {
            return this.stop(
              `more than ${this.maxBytes + headRoom} bytes came back for one request ` +
                '(the limit, with 64 KiB for the head)',
            );
          }
          return true;
        case 'head': {
          // Bytes with no request left to answer, past the last answer's end (an empty line
          // before a status line may be ignored, RFC 9112 §2.2): that answer's framing was wrong.
          if (
            this.sent.length === 0 &&
            this.head.length === 0 &&
            /[^\r\n]/.test(rest.toString('latin1'))
          )
            return this.overrun(rest.length);
          const start = this.head.length;
          this.head = Buffer.concat([this.head, rest]);
          const end = this.head.indexOf('\r\n\r\n', Math.max(0, start - 3));
          if (end < 0) {
            if (this.head.length > maxHead) this.framing = { kind: 'opaque' };
            return true;
          }
          rest = this.head.subarray(end + 4);
          this.startAnswer(this.head.subarray(0, end).toString('latin1').split('\r\n'));
          this.head = Buffer.alloc(0);
          break;
        }
        case 'length':
        case 'chunk-data': {
          const taken = Math.min(framing.left, rest.length);
          if (!(await this.body(rest.subarray(0, taken)))) return false;
          framing.left -= taken;
          rest = rest.subarray(taken);
          if (framing.left === 0) {
            if (framing.kind === 'length') this.endAnswer();
            else this.framing = { kind: 'chunk-end', left: 2 };
          }
          break;
        }
        case 'until-close':
          return this.body(rest);
        case 'chunk-end': {
          const taken = Math.min(framing.left, rest.length);
          framing.left -= taken;
          rest = rest.subarray(taken);
          if (framing.left === 0) this.framing = { kind: 'chunk-size', line: '' };
          break;
        }
        case 'chunk-size':
        case 'trailers': {
          const newline = rest.indexOf(0x0a);
          const piece = rest.subarray(0, newline < 0 ? rest.length : newline + 1);
          framing.line += piece.toString('latin1');
          rest = rest.subarray(piece.length);
          if (framing.line.length > maxHead) this.framing = { kind: 'opaque' };
          else if (newline >= 0) this.endLine(framing);
          break;
        }
      }
    }
    return true;
  }

  /** A complete line of chunked framing: a chunk's size, or a trailer (empty: the end). */
  private endLine(framing: { kind: 'chunk-size' | 'trailers'; line: string }): void {
    const line = framing.line.trim();
    if (framing.kind === 'trailers') {
      if (line === '') this.endAnswer();
      else framing.line = '';
      return;
    }
    const size = Number.parseInt(line.split(';')[0] ?? '', 16);
    if (!Number.isFinite(size)) this.framing = { kind: 'opaque' };
    else if (size === 0) this.framing = { kind: 'trailers', line: '' };
    else this.framing = { kind: 'chunk-data', left: size };
  }

  /** An answer's head: how its body is framed, and how it is encoded. */
  private startAnswer(lines: string[]): void {
    const request = this.sent[0];
    this.status = Number((lines[0] ?? '').split(' ')[1]);
    this.raw = 0;
    this.decoded = 0;
    this.decoder = undefined;
    const headers = lines.slice(1);
    this.hints = hintsOf(lines[0] ?? '', headers);
    if (!request || !Number.isInteger(this.status)) {
      this.framing = { kind: 'opaque' };
      return;
    }
    // An interim answer (100 Continue) precedes the answer to the same request.
    if (this.status >= 100 && this.status < 200 && this.status !== 101) return;
    if (this.status === 101) {
      this.framing = { kind: 'opaque' };
      return;
    }
    if (request.method === 'HEAD' || this.status === 204 || this.status === 304) {
      this.endAnswer();
      return;
    }
    const transfer = headerValues(headers, 'transfer-encoding').join(', ').toLowerCase();
    const length = headerValues(headers, 'content-length')[0];
    this.declared = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
    if (/(^|,)\s*chunked\s*$/.test(transfer)) this.framing = { kind: 'chunk-size', line: '' };
    else if (transfer === '' && length !== undefined && /^\d+$/.test(length)) {
      this.framing = { kind: 'length', left: Number(length) };
      if (this.framing.left === 0) this.endAnswer();
    } else this.framing = { kind: 'until-close' };
    this.decoder = decoderFor(headerValues(headers, 'content-encoding').join(', ').toLowerCase());
  }

  private endAnswer(): void {
    this.lastAnswered = { request: this.sent[0], length: this.declared };
    this.sent.shift();
    this.completed++;
    this.lastHints = this.hints;
    this.framing = { kind: 'head' };
    this.decoder?.stream.destroy();
    this.decoder = undefined;
  }

  /** A piece of the body: counted as sent, then as decoded; false when the tunnel was cut. */
  private async body(piece: Buffer): Promise<boolean> {
    this.raw += piece.length;
    if (this.raw > this.maxBytes) {
      return this.stop(`more than ${this.maxBytes} bytes of body were sent`);
    }
    if (!this.decoder || piece.length === 0) return true;
    this.decoded = await this.decoder.decode(piece, this.maxBytes);
    if (this.decoded > this.maxBytes) {
      return this.stop(
        `${this.raw} bytes of ${this.decoder.encoding} decoded to more than ${this.maxBytes} bytes`,
      );
    }
    return true;
  }

  /** More bytes after an answer framed by its Content-Length: the answer is cut, and said so. */
  private overrun(bytes: number): false {
    const { request, length } = this.lastAnswered ?? {};
    this.cut(
      request?.path ?? '',
      request?.method ?? '',
      `the answer ran past its framing: ${bytes} more bytes came after the ${length === undefined ? 'end it declared' : `${length} bytes of its Content-Length`} (a Content-Length counted in characters rather than bytes?), so its body as framed is cut short and the connection carries garbage`,
    );
    return false;
  }

  private stop(how: string): false {
    const request = this.sent[0] ?? { method: '', path: '' };
    const status = this.status && this.framing.kind !== 'opaque' ? `${this.status}, ` : '';
    this.decoder?.stream.destroy();
    this.cut(
      this.framing.kind === 'opaque' ? '' : request.path,
      this.framing.kind === 'opaque' ? '' : request.method,
      `the answer was larger than ${this.maxBytes} bytes (${status}${how}; the suite stopped ` +
        'reading it); CONFORMANCE_MAX_RESPONSE_BYTES sets the limit',
    );
    return false;
  }
}

/** What an answer's status line and headers say of its connection (RFC 9112 §9.3, §9.6). */
function hintsOf(statusLine: string, headers: string[]): ConnectionHints {
  const connection = headerValues(headers, 'connection').join(',').toLowerCase();
  const options = connection.split(',').map((option) => option.trim());
  const close =
    options.includes('close') ||
    (/^HTTP\/1\.0 /i.test(statusLine) && !options.includes('keep-alive'));
  const timeout = /(?:^|[,;\s])timeout\s*=\s*(\d+)/i.exec(
    headerValues(headers, 'keep-alive').join(','),
  );
  return timeout ? { close, keepAliveMs: Number(timeout[1]) * 1000 } : { close };
}

/** The values of a header in a head's lines, trimmed, in order. */
/** Header lines with the bytes `headerBytesHeader` asks for put in, and that header removed. */
function withHeaderBytes(lines: string[]): string[] {
  const asked = headerValues(lines, headerBytesHeader)[0];
  if (asked === undefined) return lines;
  const patches = new Map<string, [number, string][]>();
  for (const part of asked.split(';')) {
    const [name = '', ...places] = part.trim().split(' ');
    patches.set(
      name.toLowerCase(),
      places.map((place) => {
        const [at = '', hex = ''] = place.split('=');
        return [Number(at), String.fromCharCode(parseInt(hex, 16))];
      }),
    );
  }
  return lines
    .filter((line) => !line.toLowerCase().startsWith(`${headerBytesHeader}:`))
    .map((line) => {
      const colon = line.indexOf(':');
      const places = colon > 0 ? patches.get(line.slice(0, colon).toLowerCase()) : undefined;
      if (!places) return line;
      // Node writes a field as `name: value`.
      const chars = [...line];
      for (const [at, char] of places) chars[colon + 2 + at] = char;
      return chars.join('');
    });
}

/** The pieces a request is to be written in (`segmentsHeader`'s value), when it says any. */
function segmentsOf(value: string | undefined): Segments | undefined {
  const match = /^head=(\d+); body=(\d+); gap=(\d+)(; in-char)?$/.exec(value ?? '');
  if (!match) return undefined;
  const [head, body, gapMs] = match.slice(1, 4).map(Number) as [number, number, number];
  return { head, body, gapMs, ...(match[4] ? { inChar: true } : {}) };
}

function headerValues(lines: string[], name: string): string[] {
  const values: string[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === name) {
      values.push(line.slice(colon + 1).trim());
    }
  }
  return values;
}

/** Counts a body's decoded bytes with the decoder Playwright uses for its Content-Encoding. */
class Decoder {
  private total = 0;
  private failed = false;
  private onOver?: () => void;

  constructor(
    readonly encoding: string,
    readonly stream: zlib.Gunzip | zlib.BrotliDecompress | zlib.Inflate,
  ) {
    stream.on('data', (piece: Buffer) => {
      this.total += piece.length;
      this.onOver?.();
    });
    // A body that does not decode: Playwright fails on it too, at the same byte.
    stream.on('error', () => {
      this.failed = true;
      this.onOver?.();
    });
  }

  /** The decoded total once `piece` is decoded, or as soon as it passes `maxBytes`. */
  decode(piece: Buffer, maxBytes: number): Promise<number> {
    if (this.failed) return Promise.resolve(this.total);
    return new Promise((resolve) => {
      this.onOver = () => {
        if (this.total > maxBytes || this.failed) {
          this.onOver = undefined;
          this.stream.destroy();
          resolve(this.total);
        }
      };
      this.stream.write(piece, () => resolve(this.total));
    });
  }
}

function decoderFor(encoding: string): Decoder | undefined {
  // As Playwright decodes (its fetch): gzip and br flushed leniently, deflate as zlib.
  if (encoding === 'gzip' || encoding === 'x-gzip') {
    return new Decoder(
      encoding,
      zlib.createGunzip({
        flush: zlib.constants.Z_SYNC_FLUSH,
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
      }),
    );
  }
  if (encoding === 'br') {
    return new Decoder(
      encoding,
      zlib.createBrotliDecompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      }),
    );
  }
  if (encoding === 'deflate') return new Decoder(encoding, zlib.createInflate());
  return undefined;
}
