// node:http plumbing: request target and base path, body reading with a size limit, reply
// writing, and answers to requests that are not HTTP at all. No routing or business rules here.
import {
  STATUS_CODES,
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { serializeJson } from './json.ts';
import type { BodyRead, Reply, Service, ServiceRequest } from './service.ts';

export interface HttpOptions {
  readonly service: Service;
  /** Where the routes live ('' = host root, else '/seg/...' without trailing slash). */
  readonly mountPath: string;
  /** Largest accepted request body in bytes. */
  readonly bodyLimit: number;
  /** Called with each exception that escaped the service (each one is a bug). */
  readonly onInternalError: (error: unknown) => void;
  /** Header values holding control characters reach the service (VariantSettings). */
  readonly lenientParser?: boolean;
}

/** Half-sent requests are dropped after these; node checks them every CHECK_INTERVAL_MS. */
const REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 10_000;
const CHECK_INTERVAL_MS = 2_000;
/**
 * Idle kept-alive connections stay open longer than clients keep them (node's agent: 5 s,
 * undici: 4 s), so that it is always the client that closes one: a server closing at the moment
 * the client reuses the connection makes the client's request fail.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/**
 * After an early answer with Connection: close (413), the rest of the body is read and dropped
 * for at most this long before the socket is closed: closing with unread data would make the
 * kernel send a reset, and the client could lose the answer before reading it.
 */
const LINGER_MS = 2_000;

const TOO_LARGE: BodyRead = { ok: false, reason: 'too-large' };
const ABORTED: BodyRead = { ok: false, reason: 'aborted' };
const ABSOLUTE_FORM = /^https?:\/\//i;

export function createHttpServer(options: HttpOptions): Server {
  const { service, mountPath, bodyLimit, onInternalError } = options;

  const server = createServer({
    requestTimeout: REQUEST_TIMEOUT_MS,
    headersTimeout: HEADERS_TIMEOUT_MS,
    connectionsCheckingInterval: CHECK_INTERVAL_MS,
    // Checked below, so that this 400 carries an Error body like every other.
    requireHostHeader: false,
    insecureHTTPParser: options.lenientParser ?? false,
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;

  const respond = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let reply: Reply;
    try {
      reply =
        req.httpVersion === '1.1' && req.headers.host === undefined
          ? service.finishReply(
              service.errorReply(400, 'bad_request', 'HTTP/1.1 requests need a Host header'),
            )
          : await service.handle(toServiceRequest(req, mountPath, bodyLimit));
    } catch (error) {
      onInternalError(error);
      reply = internalErrorReply(service);
    }
    try {
      writeReply(req, res, reply);
    } catch (error) {
      onInternalError(error);
      res.destroy();
    }
  };

  // The response under way on each connection, for clientError (node keeps it in a private field).
  const responding = new WeakMap<object, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    responding.set(req.socket, res);
    res.on('finish', () => {
      if (responding.get(req.socket) === res) responding.delete(req.socket);
    });
    void respond(req, res);
  });

  // A client announcing a body above the limit gets its 413 instead of "100 Continue".
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (!(Number(req.headers['content-length']) > bodyLimit)) res.writeContinue();
    void respond(req, res);
  });

  // Any other Expect value: 417, with an Error body rather than node's empty one.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const reply = service.errorReply(417, 'expectation_failed', 'Only 100-continue is supported');
    writeReply(req, res, service.finishReply(reply));
  });

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As node's own handler: answer only when no byte of a response went out on this socket.
    if (error.code === 'ECONNRESET' || !socket.writable || responding.get(socket)?.headersSent) {
      socket.destroy();
      return;
    }
    let reply: Reply;
    try {
      reply = service.finishReply(clientErrorReply(service, error.code));
    } catch (bug) {
      onInternalError(bug);
      reply = internalErrorReply(service);
    }
    socket.end(rawResponse(reply));
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });

  return server;
}

function toServiceRequest(
  req: IncomingMessage,
  mountPath: string,
  bodyLimit: number,
): ServiceRequest {
  let target = req.url ?? '';
  // RFC 9112 asks servers to accept the absolute form too (http://host/path?query).
  if (ABSOLUTE_FORM.test(target)) {
    try {
      const url = new URL(target);
      target = url.pathname + url.search;
    } catch {
      // left as is: it will match no route
    }
  }
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  // Several Authorization fields are joined, so that they fail the comparison instead of node
  // silently keeping the first.
  const authorization = req.headersDistinct.authorization?.join(', ');
  return {
    method: req.method ?? '',
    path: belowMount(path, mountPath),
    query: q < 0 ? '' : target.slice(q + 1),
    authorization,
    contentType: req.headers['content-type'],
    rawHeaders: req.rawHeaders,
    readBody: () => readBody(req, bodyLimit),
    readOnce: () => readOnce(req),
    readPieces: () => readPieces(req),
  };
}

function belowMount(path: string, mountPath: string): string | undefined {
  if (mountPath === '') return path;
  if (!path.startsWith(mountPath)) return undefined;
  const rest = path.slice(mountPath.length);
  return rest === '' || rest.startsWith('/') ? rest : undefined;
}

function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  // Refuse at once what is announced too large; otherwise count what actually arrives.
  if (Number(req.headers['content-length']) > limit) return Promise.resolve(TOO_LARGE);
  if (req.destroyed) return Promise.resolve(ABORTED);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyRead): void => {
      req.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish(TOO_LARGE);
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish({ ok: true, bytes: Buffer.concat(chunks, size) });
    const onClose = (): void => finish(ABORTED);
    req.on('data', onData).on('end', onEnd).on('close', onClose).on('error', onClose);
  });
}

function readPieces(req: IncomingMessage): Promise<Buffer[] | undefined> {
  if (req.destroyed) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const pieces: Buffer[] = [];
    req.on('data', (chunk: Buffer) => pieces.push(chunk));
    req.on('end', () => resolve(pieces));
    req.on('close', () => resolve(req.complete ? pieces : undefined));
  });
}

function readOnce(req: IncomingMessage): Promise<BodyRead> {
  if (req.destroyed) return Promise.resolve(ABORTED);
  // What the parser took from the read that held the end of the head is in the stream's buffer
  // by now; what comes later is not read.
  return new Promise((resolve) => {
    setImmediate(() => {
      const chunk = req.read() as Buffer | null;
      resolve({ ok: true, bytes: chunk ?? Buffer.alloc(0) });
    });
  });
}

/** Header names as usually written (Content-Type, WWW-Authenticate), for readable traces. */
const headerNames = new Map<string, string>([['www-authenticate', 'WWW-Authenticate']]);
function headerName(name: string): string {
  let written = headerNames.get(name);
  if (written === undefined) {
    written = name.replace(
      /(^|-)([a-z])/g,
      (_, dash: string, letter: string) => dash + letter.toUpperCase(),
    );
    if (headerNames.size < 100) headerNames.set(name, written);
  }
  return written;
}

/** Headers and bytes of a reply, with content-type and content-length filled in. */
function encode(reply: Reply): { headers: Record<string, string>; body: Buffer | undefined } {
  const headers = { ...reply.headers };
  let body: Buffer | undefined;
  if (reply.bytes !== undefined) {
    body = Buffer.from(reply.bytes);
    headers['content-type'] ??= 'application/octet-stream';
  } else if (reply.text !== undefined) {
    body = Buffer.from(reply.text, 'utf8');
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  } else if (reply.json !== undefined) {
    body = Buffer.from(serializeJson(reply.json), 'utf8');
    headers['content-type'] ??= 'application/json';
  }
  // A variant may declare a length of its own (a fault's): the clean service never does.
  headers['content-length'] ??= String(body?.length ?? 0);
  const written: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) written[headerName(name)] = value;
  return { headers: written, body };
}

function writeReply(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  // The client may be gone (a hung-up request), or a variant may have answered already.
  if (res.headersSent || res.destroyed || res.writableEnded) return;
  const { headers, body } = encode(reply);
  res.writeHead(reply.status, headers);
  if (headers.Connection !== 'close' || req.complete) {
    res.end(body);
    return;
  }
  // Lingering close: the answer goes out now, the end of the response (and so the close) waits
  // until the client has sent the rest of its body, hung up, or LINGER_MS passed.
  if (body !== undefined) res.write(body);
  req.removeAllListeners('data');
  req.resume();
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    res.end();
  };
  const timer = setTimeout(end, LINGER_MS).unref();
  req.once('end', end).once('close', end);
}

/** A complete HTTP/1.1 response for a socket whose request could not be parsed. */
function rawResponse(reply: Reply): Buffer {
  const { headers, body } = encode(reply);
  headers.Connection = 'close';
  let head = `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? 'Unknown'}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  head += '\r\n';
  return body === undefined
    ? Buffer.from(head, 'latin1')
    : Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

function clientErrorReply(service: Service, code: string | undefined): Reply {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return service.errorReply(431, 'headers_too_large', 'The request headers are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return service.errorReply(408, 'request_timeout', 'The request was not received in time');
    default:
      return service.errorReply(400, 'bad_request', 'The request is not valid HTTP/1.1');
  }
}

/** The 500 answer to a bug; built without the (overridable) service if that fails too. */
function internalErrorReply(service: Service): Reply {
  const message = 'The server hit a bug; the request was not carried out';
  try {
    return service.finishReply(service.errorReply(500, 'internal_error', message));
  } catch {
    return { status: 500, headers: {}, json: { code: 'internal_error', message, status: 500 } };
  }
}
