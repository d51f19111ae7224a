/**
 * How a failure reads, in one place: the request line, the answer, the layout of a failed check
 * (requirement, request, expected, received, problems), the exchanges attached to a failed test
 * with curl commands, a property's counterexample, and the parsing of that layout back into its
 * parts for the summary page. Change the wording here and every report follows.
 *
 * Plain functions over plain data (an exchange is anything shaped like ExchangeView), so that the
 * client, the matchers, the fixtures and the reporters can all use them. No key is ever written:
 * requests carry the Authorization header as a description (`Bearer <API_KEY>`).
 */

/** A request as sent, described for reports. */
export interface RequestView {
  method: string;
  /** The path below the base address, as sent (query included). */
  path: string;
  url: string;
  /** The Authorization header as described in reports: the key itself is never shown. */
  auth: string;
  /** The header's name as spelled on the wire, when not the document's `Authorization`. */
  authName?: string;
  body?: string;
  /** The body's media type, when one was sent. */
  contentType?: string;
  /** The Accept header, when a check sent another than application/json. */
  accept?: string;
  /** The body's bytes are not UTF-8 (`body` shows them decoded, with replacement characters). */
  notUtf8?: true;
  /** A header value holds a control character (RFC 9110 §5.5), written by the response guard. */
  fieldControls?: true;
  /** Written to the target in pieces, apart in time: how (curl writes a request whole). */
  segments?: string;
}

/** How a request written in pieces (http/response-guard.ts, `Segments`) was written, for a reader. */
export function segmentsText(segments: {
  head: number;
  body: number;
  gapMs: number;
  inChar?: boolean;
}) {
  const { head, body, gapMs, inChar } = segments;
  const pieces = (count: number, what: string) =>
    count === 1 ? `the ${what} whole` : `the ${what} in ${count} pieces`;
  const bodyPieces = inChar ? 'the body in 2 pieces, cut inside a character' : pieces(body, 'body');
  return `written as ${pieces(head, 'head')}, then ${bodyPieces}, ${gapMs} ms apart`;
}

/** A request and the answer it got. */
export interface ExchangeView {
  request: RequestView;
  status: number;
  headers: Record<string, string>;
  text: string;
  durationMs: number;
  /** Why no usable answer came back (refused, reset, timed out, too large), if so. */
  failure?: string;
  /** Not sent at all (the target refused the connection): why; a check cannot judge it. */
  notSent?: string;
  /** The body's bytes are not UTF-8: `text` is their lossy decoding. */
  notUtf8?: true;
}

// C0 controls but tab and line feed, DEL, C1 controls: a terminal or CI log acts on them (ESC
// starts an escape sequence, CR rewrites the line, NUL makes a log binary to grep).
// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text as a report shows it: each control character written as \xHH, as a reader can type it. */
export function printable(text: string): string {
  return text.replace(
    controls,
    (char) => `\\x${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** Abbreviates long text for failure messages. */
export function excerpt(text: string, max = 600): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters in all)`;
}

/** `GET https://…/v1/pets (Authorization: Bearer <API_KEY>)`, and the body below it if any. */
export function requestLine(request: RequestView): string {
  const { method, url, auth, authName, accept, body, segments } = request;
  const sent = body === undefined ? '' : `\n  body: ${printable(excerpt(body, 300))}`;
  const accepting = accept === undefined ? '' : `; Accept: ${accept}`;
  const pieces = segments === undefined ? '' : `\n  ${segments}`;
  return `${method} ${url} (${authName ?? 'Authorization'}: ${auth}${accepting})${sent}${pieces}`;
}

/** For a 3xx, where it points: the suite follows no redirect, so a 3xx is judged as it is. */
function redirectNote(exchange: ExchangeView): string {
  if (exchange.status < 300 || exchange.status >= 400) return '';
  const location = exchange.headers.location;
  if (!location) return ', a redirect without a Location (not followed)';
  let target = location;
  try {
    target = new URL(location, exchange.request.url).href;
  } catch {
    // shown as sent
  }
  const loop = target === new URL(exchange.request.url).href ? ', to itself: a redirect loop' : '';
  return `, a redirect to ${location}${loop} (not followed)`;
}

/** `200 application/json after 41 ms` and an excerpt of the body on the next line. */
export function responseLine(exchange: ExchangeView): string {
  if (exchange.failure !== undefined) {
    return `no usable answer after ${exchange.durationMs} ms: ${exchange.failure}`;
  }
  const type = exchange.headers['content-type'] || 'no Content-Type';
  const text = exchange.text === '' ? '(empty body)' : printable(excerpt(exchange.text));
  return `${exchange.status} ${type} after ${exchange.durationMs} ms${redirectNote(exchange)}\n  ${text}`;
}

/** A curl command that repeats a request, with the key left to the shell ($API_KEY). */
export function curlCommand(request: RequestView): string {
  const command = curlLine(request);
  // curl writes a request whole: the pieces the check sent it in are said, not repeated.
  return request.segments === undefined
    ? command
    : `${command}  # the check's request was ${request.segments}; curl writes it whole`;
}

function curlLine(request: RequestView): string {
  const { method, path, auth, authName, accept, body, contentType } = request;
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const parts = [`curl -i -X ${method} "$BASE_URL"${quote(path)}`];
  // curl sends a header's name as written (HTTP/1.1), so the spelling is repeated too.
  const header = `${authName ?? 'Authorization'}: ${auth}`;
  if (auth !== 'none') parts.push(`-H ${quote(header).replace('<API_KEY>', '\'"$API_KEY"\'')}`);
  if (accept !== undefined) parts.push(`-H ${quote(`accept: ${accept}`)}`);
  if (body !== undefined) {
    const type = `content-type: ${contentType ?? 'application/json'}`;
    // A body with control characters goes through printf's octal escapes (NUL cannot stand in
    // an argument), so that the command line itself holds none.
    controls.lastIndex = 0;
    if (!controls.test(body)) parts.push(`-H ${quote(type)} --data-binary ${quote(body)}`);
    else {
      const octal = body
        .replace(/\\/g, '\\\\')
        .replace(controls, (char) =>
          [...Buffer.from(char, 'utf8')]
            .map((byte) => `\\0${byte.toString(8).padStart(3, '0')}`)
            .join(''),
        );
      parts.push(`-H ${quote(type)} --data-binary @-`);
      return `printf '%b' ${quote(octal)} | ${parts.join(' ')}`;
    }
  }
  return parts.join(' ');
}

/** The `exchanges` attachment of a failed test: every request, its answer, and how to repeat it. */
export function exchangesLog(exchanges: readonly ExchangeView[]): string {
  return exchanges
    .map((exchange, index) =>
      [
        `#${index + 1} ${requestLine(exchange.request)}`,
        `=> ${responseLine(exchange)}`,
        `repeat: ${curlCommand(exchange.request)}`,
      ].join('\n'),
    )
    .join('\n\n');
}

/** The message of a failed check: `[IDs] request`, `Expected: …`, `Received: …`, then each problem. */
export function checkFailure(parts: {
  requirements: readonly string[];
  exchange: ExchangeView;
  expected: string;
  problems: readonly string[];
}): string {
  const ids = parts.requirements.length ? `[${parts.requirements.join(', ')}] ` : '';
  return [
    `${ids}${requestLine(parts.exchange.request)}`,
    `Expected: ${parts.expected}`,
    `Received: ${responseLine(parts.exchange)}`,
    ...parts.problems.map((problem) => `  - ${problem}`),
  ].join('\n');
}

/** A failed property: how far it got, the seed and path, the counterexample, the replay command. */
export function propertyFailure(parts: {
  numRuns: number;
  numShrinks: number;
  seed: number;
  path: string;
  counterexample: string;
  replay: string;
}): string {
  return [
    `Property failed after ${parts.numRuns} runs and ${parts.numShrinks} shrinks (seed ${parts.seed}, path ${parts.path}).`,
    `Counterexample: ${parts.counterexample}`,
    `Replay: ${parts.replay}`,
  ].join('\n');
}

/** The parts of a failure message, as the summary page shows them. */
export interface FailureParts {
  /** The request line(s): method, address, Authorization as described (never the key). */
  request?: string;
  expected?: string;
  received?: string;
  /** Anything else (a timeout, an exception), or the whole message when it has no structure. */
  other?: string;
}

/** Splits a check's message (the layout of checkFailure) back into its parts. */
export function splitFailure(message: string): FailureParts {
  const lines = message.replace(/^Error: /, '').split('\n');
  lines[0] = lines[0]!.replace(/^\[[A-Z0-9, -]+\] /, '');
  const expected = lines.findIndex((line) => line.startsWith('Expected: '));
  const received = lines.findIndex((line) => line.startsWith('Received: '));
  if (expected > 0 && received > expected) {
    return {
      request: lines.slice(0, expected).join('\n'),
      expected: lines
        .slice(expected, received)
        .join('\n')
        .replace(/^Expected: /, ''),
      received: lines
        .slice(received)
        .join('\n')
        .replace(/^Received: /, '')
        .trimEnd(),
    };
  }
  // A request that got no usable answer: "GET … (Authorization: …) failed: why".
  const request = /^[A-Z]+ \S+ \([Aa]uthorization: .*?\)(?= failed: |: |$)/.exec(lines[0]!)?.[0];
  if (request) {
    const why = lines[0]!.slice(request.length).replace(/^( failed)?: /, '');
    return { request, other: [why, ...lines.slice(1)].join('\n').trim() };
  }
  return { other: lines.join('\n').trim() };
}
