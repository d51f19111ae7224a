/**
 * Faster stack traces in Playwright's processes, with the same text.
 *
 * Why: Playwright records where every step, request and assertion was made, capturing a stack
 * each time (about 4,000 a run, 10 frames each), and the source-map-support it installs writes
 * every frame through a source-map lookup and a reflective copy of the frame: also the frames of
 * Playwright's own bundles and of Node, which have no source map (and which Playwright leaves out
 * of every location it shows). That was a sixth of a worker's time, most of the cost of a test.
 *
 * This wraps the Error.prepareStackTrace Playwright installed: a frame of a file that has no
 * source map is written here, the way source-map-support writes it (CallSiteToString, ported);
 * every other frame (the suite's TypeScript, packages that ship source maps, eval) is still
 * written by source-map-support, given the frames its text depends on, and kept: the same call
 * site called from the same place (most of a run's frames) is written from that cache. Only files
 * under node_modules and Node's own are candidates, and a file is written here only after its
 * first frame came out the same both ways. Anything unexpected falls back to the whole original.
 *
 * And source-map-support looks for a map comment in every file of a stack once a process, reading
 * it whole as text, Playwright's 3.6 MB core bundle included (15 ms in the runner and in each
 * worker). A file under node_modules whose bytes hold no "sourceMappingURL" cannot have one
 * (Playwright transforms no file there, so it keeps no map for one either): for such a file it is
 * given a blank line instead, found by a byte search a quarter as long. Its frames then read the
 * same: with no map the position is the file's own either way.
 *
 * CONFORMANCE_STACK_AUDIT=<file> writes every stack both ways and appends any difference to the
 * file, with the count compared (selftest/stack-traces.test.ts).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

type Prepare = (error: Error, frames: NodeJS.CallSite[]) => unknown;

const installed = Symbol.for('petstore-conformance.stack-traces');
const at = '\n    at ';

/** source-map-support's CallSiteToString (MIT), for a frame whose position maps to itself. */
function callSiteText(frame: NodeJS.CallSite, source: string): string {
  let fileLocation = '';
  if (frame.isNative()) {
    fileLocation = 'native';
  } else {
    fileLocation += source;
    const lineNumber = frame.getLineNumber();
    if (lineNumber != null) {
      fileLocation += `:${lineNumber}`;
      const columnNumber = frame.getColumnNumber();
      if (columnNumber) fileLocation += `:${columnNumber}`;
    }
  }
  let line = '';
  const functionName = frame.getFunctionName();
  let addSuffix = true;
  const isConstructor = frame.isConstructor();
  const isMethodCall = !(frame.isToplevel() || isConstructor);
  if (isMethodCall) {
    let typeName = frame.getTypeName();
    if (typeName === '[object Object]') typeName = 'null';
    const methodName = frame.getMethodName();
    if (functionName) {
      if (typeName && functionName.indexOf(typeName) != 0) line += `${typeName}.`;
      line += functionName;
      if (
        methodName &&
        functionName.indexOf(`.${methodName}`) != functionName.length - methodName.length - 1
      ) {
        line += ` [as ${methodName}]`;
      }
    } else {
      line += `${typeName}.${methodName || '<anonymous>'}`;
    }
  } else if (isConstructor) {
    line += `new ${functionName || '<anonymous>'}`;
  } else if (functionName) {
    line += functionName;
  } else {
    line += fileLocation;
    addSuffix = false;
  }
  if (addSuffix) line += ` (${fileLocation})`;
  return line;
}

/** The file source-map-support would look up for this frame ('' when it has none). */
const sourceOf = (frame: NodeJS.CallSite) =>
  frame.getFileName() || frame.getScriptNameOrSourceURL() || '';

/** Only Node's own files and compiled packages can be written here, never the suite's. */
const candidate = (source: string) =>
  (source.startsWith('node:') || source.includes(`${sep}node_modules${sep}`)) &&
  !/\.[cm]?tsx?$/.test(source);

/**
 * Everything of a frame that source-map-support reads to write it (wrapCallSite and
 * CallSiteToString): two frames alike in these are written alike.
 */
function frameKey(frame: NodeJS.CallSite): string {
  const evalOrigin = frame.isEval() ? frame.getEvalOrigin() : '';
  return [
    frame.isNative(),
    frame.getFileName(),
    frame.getScriptNameOrSourceURL(),
    frame.getLineNumber(),
    frame.getColumnNumber(),
    evalOrigin,
    frame.getFunctionName(),
    frame.isConstructor(),
    frame.isToplevel(),
    frame.getTypeName(),
    frame.getMethodName(),
  ].join('\u0000');
}

/** At most this many mapped frames are kept written, in case call sites never repeat. */
const mappedLinesMax = 20_000;

function fastPrepare(original: Prepare): Prepare {
  /** Per file: true when its frames are written here (it has no source map), false if not. */
  const plain = new Map<string, boolean>();
  /** Mapped frames written so far, by the keys of the frames their text depends on. */
  const mappedLines = new Map<string, string>();

  const prepare: Prepare = (error, frames) => {
    const header = String(original(error, []));
    const lines: string[] = new Array(frames.length);
    // The last frame, towards the caller, that set source-map-support's current position: the
    // name of a frame can come from that position when it is mapped (see wrapCallSite).
    let setter = -1;
    let setterMapped = false;
    /**
     * Frame i as source-map-support writes it, given the frames up to the setter: its text depends
     * on those frames alone (and on source maps, which do not change in a run), so a mapped frame
     * met again (the same call site, called from the same place) is written from the cache.
     */
    // A frame's key serves every frame below it up to the next setter: made once per stack.
    const keys: string[] = new Array(frames.length);
    const keyOf = (j: number) => (keys[j] ??= frameKey(frames[j]!));
    const originalLine = (i: number): string | undefined => {
      const end = setter === -1 ? i + 1 : setter + 1;
      let key = keyOf(i);
      for (let j = i + 1; j < end; j++) key += `\n${keyOf(j)}`;
      const known = mappedLines.get(key);
      if (known !== undefined) return known;
      const text = String(original(error, frames.slice(i, end)));
      const parts = text.slice(header.length).split(at);
      if (parts.length !== end - i + 1 || parts[0] !== '') return undefined;
      if (mappedLines.size < mappedLinesMax) mappedLines.set(key, parts[1]!);
      return parts[1];
    };
    for (let i = frames.length - 1; i >= 0; i--) {
      const frame = frames[i]!;
      if (frame.isNative()) {
        lines[i] = String(frame);
        setter = i;
        setterMapped = false;
        continue;
      }
      const source = sourceOf(frame);
      if (!source) {
        // No file: written as is, unless eval (its origin is mapped); sets no position.
        const line = frame.isEval() ? originalLine(i) : String(frame);
        if (line === undefined) return original(error, frames);
        lines[i] = line;
        continue;
      }
      let known = candidate(source) ? plain.get(source) : false;
      if (known !== false && !setterMapped) {
        const line = callSiteText(frame, source);
        if (known === undefined) {
          known = line === originalLine(i);
          plain.set(source, known);
        }
        if (known) {
          lines[i] = line;
          setter = i;
          setterMapped = false;
          continue;
        }
      }
      const line = originalLine(i);
      if (line === undefined) return original(error, frames);
      lines[i] = line;
      setter = i;
      // A file not yet known to be plain may have a map: its position may name the next frame.
      setterMapped = known !== true;
    }
    return header + lines.map((line) => at + line).join('');
  };
  // A stack must never fail to be written: on any surprise, the original writes it whole.
  return (error, frames) => {
    try {
      return prepare(error, frames);
    } catch {
      return original(error, frames);
    }
  };
}

/** Appends every stack whose text differs from the original's to `file`, and the count. */
function audited(original: Prepare, fast: Prepare, file: string): Prepare {
  let compared = 0;
  process.on('exit', () => appendFileSync(file, `${JSON.stringify({ compared })}\n`));
  return (error, frames) => {
    const expected = original(error, frames);
    const got = fast(error, frames);
    compared++;
    if (got !== expected) appendFileSync(file, `${JSON.stringify({ expected, got })}\n`);
    return expected;
  };
}

/**
 * The text source-map-support searches for a map comment, for a JavaScript file under
 * node_modules whose bytes hold no "sourceMappingURL": a blank line, which holds none either.
 * Any other file (TypeScript, a map, Node's own, a file that names a map) is left to it: null.
 */
function blankIfMapless(path: string): string | null {
  const file = path.startsWith('file://') ? fileURLToPath(path) : path;
  if (!file.includes(`${sep}node_modules${sep}`) || !/\.[cm]?js$/.test(file)) return null;
  try {
    return readFileSync(file).includes('sourceMappingURL') ? null : '\n';
  } catch {
    return null;
  }
}

interface SourceMapSupport {
  install(options: {
    retrieveFile?: (path: string) => string | null;
    handleUncaughtExceptions?: boolean;
  }): void;
}

/** Wraps Playwright's Error.prepareStackTrace once per process; nothing when there is none. */
export function installFastStackTraces(): void {
  const holder = globalThis as { [installed]?: boolean };
  const original = Error.prepareStackTrace as Prepare | undefined;
  if (holder[installed] || typeof original !== 'function') return;
  holder[installed] = true;
  // Playwright's own copy of source-map-support, the one that wrote `original`; a later Playwright
  // without it only loses the speed. install() adds the handler before the file reader; the rest
  // of it was done.
  try {
    const { sourceMapSupport } = createRequire(import.meta.url)(
      'playwright-core/lib/utilsBundle',
    ) as { sourceMapSupport?: SourceMapSupport };
    sourceMapSupport?.install({ retrieveFile: blankIfMapless, handleUncaughtExceptions: false });
  } catch {
    // the original reads every file, as before
  }
  const fast = fastPrepare(original);
  const audit = process.env.CONFORMANCE_STACK_AUDIT;
  Error.prepareStackTrace = (audit ? audited(original, fast, audit) : fast) as never;
}
