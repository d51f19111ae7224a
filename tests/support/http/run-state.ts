/**
 * What the worker processes of one run share about one target, in small files in the system's
 * temporary folder, one set per run id and target:
 * - the write budget: each create request appends a byte to one file, each create the target did
 *   not process (it asked to wait) a byte to another; appends are atomic, so the sizes count
 *   them across processes, at the cost of one append and one stat;
 * - the ids the creates were answered with (201), a line each: read only when an answer shows
 *   something amiss under an id (one id listed twice, a created pet read back otherwise), to tell
 *   two creates given one id from a pet listed twice or not kept;
 * - whether a create of a name holding a lone surrogate was answered with a 5xx: read only when a
 *   list or getPet is, since a store may hold that pet and fail on every answer that shows it;
 * - the times of the answers that were not refusals, a line each: read only when the target
 *   first refuses a request, to learn the rate it took until then;
 * - signals, rare and read before every request: a pause the target asked for (a 429 or a 503),
 *   the operations that stopped answering; and, with a pace, the pace and the next free slot.
 *   These are changed under a lock (a directory, whose creation is atomic) and replaced whole (a
 *   rename is atomic too), so a reader never sees half a file.
 *
 * A pause is the run's, not the request's: a gateway that answers 429 limits the client, so every
 * worker waits until the time it named. The pauses add up to the run's waiting, which is bounded.
 *
 * The pace is learned from the refusals (additive increase, multiplicative decrease, as TCP
 * learns a path's capacity), one pace for every worker:
 * - a run starts unpaced (or at CONFORMANCE_RATE);
 * - its first refusal sets the pace to 70% of the rate of answers the run got in the second
 *   before it (or since its first answer, when that was less than a second before);
 * - each later refusal cuts it by a quarter, once: the refusals of requests whose slots were
 *   taken before the last cut were sent at the old pace, which that cut answered already; and the
 *   requests still waiting for a slot of the old pace take a new one, lest they all be refused;
 * - each answer that is no refusal, to a request that waited for its slot, raises it by a tenth
 *   of a request a second: about 10% a second while the run goes at its pace and the target takes
 *   it. A run slower than its pace (waiting on answers) shows nothing of what the target would
 *   take, and does not raise it.
 * A request that wakes more than a slot after its own (its worker starved of CPU) takes a new one
 * too: sent at once, it would go together with the requests of the slots that passed meanwhile.
 * So a paced run meets the limit once in a while, instead of every time a pause ends: the workers
 * waiting on a pause would otherwise all send at once, and most of them be refused again.
 */
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export class WriteBudgetExceeded extends Error {}

interface Signals {
  /** Per operation, requests in a row that got no answer within the request timeout. */
  unanswered: Record<string, number>;
  /** With a pace: the earliest time the next request may go. */
  nextSlotAt: number;
  /** The target asked the run to wait until then. */
  pausedUntil: number;
  /** Milliseconds the run has been paused in all (pauses do not overlap, so this is wall time). */
  pausedMs: number;
  /** The pace learned from refusals, requests a second (0: none learned yet). */
  rate: number;
  /**
   * How many times the pace was cut: a refusal of a request whose slot was taken before the last
   * cut (at the old pace, which that cut answered) cuts nothing more.
   */
  cuts: number;
}

const quiet: Signals = {
  unanswered: {},
  nextSlotAt: 0,
  pausedUntil: 0,
  pausedMs: 0,
  rate: 0,
  cuts: 0,
};

/** The first cut: this share of the rate of answers in the second before the first refusal. */
const FIRST_CUT = 0.7;
/** Each later cut keeps this share of the pace. */
const LATER_CUT = 0.75;
/** Each answer that is no refusal adds this to the pace (requests a second). */
const RAISE_PER_ANSWER = 0.1;
/** The pace never falls below this (requests a second): refusals are bounded by the run's wait. */
const MIN_PACE = 1;
/** The window in which the answers before the first refusal are counted. */
const RATE_WINDOW_MS = 1000;
/** The shortest span the answers before the first refusal are counted over. */
const MIN_SPAN_MS = 250;
/** Of the answers' times, the tail read at the first refusal: ample for the window. */
const ANSWER_TAIL_BYTES = 64 * 1024;
/** A request that woke more than a slot late takes a new slot at most this many times. */
const STALE_RETAKES = 3;

/** The folder of every run's state files; removed run by run at the end (removeRunState). */
export const stateDir = join(tmpdir(), 'petstore-conformance');

/** An operation that went unanswered this many times in a row is not waited on again. */
export const UNANSWERED_LIMIT = 2;

const LOCK_STALE_MS = 5_000;
const spin = new Int32Array(new SharedArrayBuffer(4));

/** The prefix of a run's state files for one target. */
function statePrefix(runId: string, baseUrl: string): string {
  const target = createHash('sha256').update(baseUrl).digest('hex').slice(0, 12);
  return join(stateDir, `${runId}-${target}`);
}

/** Removes the state files of a run (at its end: a later run with the same id starts afresh). */
export function removeRunState(runId: string): void {
  let names: string[];
  try {
    names = readdirSync(stateDir).filter((name) => name.startsWith(`${runId}-`));
  } catch {
    return;
  }
  for (const name of names) rmSync(join(stateDir, name), { recursive: true, force: true });
}

const sizeOf = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

export interface RunStateOptions {
  runId: string;
  baseUrl: string;
  /** At most this many create requests in this run (this shard's part) against this target. */
  maxPets: number;
  /** How the budget reads in a message: "this run may send at most 400", or a shard's part. */
  budgetText?: string;
  /** Requests a second across the run's workers; 0: as fast as the target answers. */
  pace: number;
  /** The run waits at most this long in all for a target that asks it to wait. */
  maxWaitMs: number;
}

export class RunState {
  private readonly creates: string;
  private readonly released: string;
  private readonly idsFile: string;
  private readonly chosen: string;
  private readonly sent: string;
  private readonly settled: string;
  private readonly unwritable: string;
  private readonly answerTimes: string;
  private readonly signals: string;
  private readonly lock: string;

  constructor(readonly options: RunStateOptions) {
    mkdirSync(stateDir, { recursive: true });
    const prefix = statePrefix(options.runId, options.baseUrl);
    this.creates = `${prefix}.creates`;
    this.released = `${prefix}.released`;
    this.idsFile = `${prefix}.ids`;
    this.chosen = `${prefix}.chosen`;
    this.sent = `${prefix}.sent`;
    this.settled = `${prefix}.settled`;
    this.unwritable = `${prefix}.unwritable`;
    this.answerTimes = `${prefix}.answers`;
    this.signals = `${prefix}.json`;
    this.lock = `${prefix}.lock`;
  }

  private read(): Signals {
    // Read before every request, and in most runs never written: a stat that finds no file costs
    // far less than a read that throws.
    if (!statSync(this.signals, { throwIfNoEntry: false })) return { ...quiet };
    try {
      return { ...quiet, ...(JSON.parse(readFileSync(this.signals, 'utf8')) as Signals) };
    } catch {
      return { ...quiet };
    }
  }

  /** Runs `change` on the signals under the lock and saves what it leaves. */
  private update<T>(change: (signals: Signals) => T): T {
    this.acquire();
    try {
      const signals = this.read();
      const result = change(signals);
      const temporary = `${this.signals}.${process.pid}`;
      writeFileSync(temporary, JSON.stringify(signals));
      renameSync(temporary, this.signals);
      return result;
    } finally {
      rmdirSync(this.lock);
    }
  }

  private acquire(): void {
    for (;;) {
      try {
        mkdirSync(this.lock);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      // A lock is held for microseconds; one older than this was left by a process that died.
      try {
        if (Date.now() - statSync(this.lock).mtimeMs > LOCK_STALE_MS) rmdirSync(this.lock);
      } catch {
        // released meanwhile
      }
      Atomics.wait(spin, 0, 0, 1);
    }
  }

  /** Counts one create request against the run's budget, or throws when it is spent. */
  reserveCreate(): void {
    appendFileSync(this.creates, '.');
    const used = sizeOf(this.creates) - sizeOf(this.released);
    if (used > this.options.maxPets) {
      throw new WriteBudgetExceeded(
        `Write budget spent: ${this.options.budgetText ?? `this run may send at most ${this.options.maxPets}`} create requests to the target ` +
          '(CONFORMANCE_MAX_PETS). Raise it, or point the suite at a target with more pets already in it.',
      );
    }
  }

  /** A create the target did not process (it asked to wait): it does not count. */
  releaseCreate(): void {
    appendFileSync(this.released, '.');
  }

  /** A create was answered 201 with this id (any worker of the run). */
  noteCreated(id: bigint): void {
    appendFileSync(this.idsFile, `${id}\n`);
  }

  /**
   * A create request is on its way (any worker of the run), until createSettled: the target may
   * store its pet, and list it, before the worker reads the answer and notes its id.
   */
  createSent(): void {
    appendFileSync(this.sent, '.');
  }

  /** A create sent has its outcome (an answer noted, or an error). */
  createSettled(): void {
    appendFileSync(this.settled, '.');
  }

  /** How many creates of the run, in all its workers, are sent and not yet settled. */
  createsInFlight(): number {
    return sizeOf(this.sent) - sizeOf(this.settled);
  }

  /** A create was answered 201 with the very id its body asked for (any worker of the run). */
  noteChosenByBody(id: bigint): void {
    appendFileSync(this.chosen, `${id}\n`);
  }

  /** How many creates of the run were given this id because their body asked for it. */
  timesChosenByBody(id: bigint): number {
    try {
      const line = String(id);
      return readFileSync(this.chosen, 'utf8')
        .split('\n')
        .filter((each) => each === line).length;
    } catch {
      return 0;
    }
  }

  /** The ids the creates of this run, in all its workers, were answered with, oldest first. */
  createdIds(): bigint[] {
    let text: string;
    try {
      text = readFileSync(this.idsFile, 'utf8');
    } catch {
      return [];
    }
    return [...new Set(text.split('\n').filter(Boolean))].map((line) => BigInt(line));
  }

  /** How many creates of this run, in all its workers, were answered with an id an earlier one had. */
  idsGivenAgain(): number {
    let text: string;
    try {
      text = readFileSync(this.idsFile, 'utf8');
    } catch {
      return 0;
    }
    const lines = text.split('\n').filter(Boolean);
    return lines.length - new Set(lines).size;
  }

  /** How many creates of this run, in all its workers, were answered with this id. */
  timesCreated(id: bigint): number {
    let text: string;
    try {
      text = readFileSync(this.idsFile, 'utf8');
    } catch {
      return 0;
    }
    const line = String(id);
    return text.split('\n').filter((each) => each === line).length;
  }

  /**
   * A create of a name holding a lone surrogate was answered with a 5xx (any worker of the run):
   * the target may have stored the pet, and then fail on every answer that shows it.
   */
  noteUnwritableName(): void {
    appendFileSync(this.unwritable, '.');
  }

  /** Whether any create of the run was answered as noteUnwritableName records. */
  unwritableNameSeen(): boolean {
    return sizeOf(this.unwritable) > 0;
  }

  /** Records whether a request of this operation was answered at all (false: it timed out). */
  answered(operation: string, answered: boolean): void {
    if (answered && !this.read().unanswered[operation]) return;
    this.update((signals) => {
      const before = signals.unanswered[operation] ?? 0;
      signals.unanswered = { ...signals.unanswered, [operation]: answered ? 0 : before + 1 };
    });
  }

  /**
   * Waits until the run may send its next request: after any pause, and on the pace (the one set,
   * or the one learned from refusals). Returns how many requests of this operation in a row went
   * unanswered (timed out): from UNANSWERED_LIMIT on, the client sends no more of them, since a
   * hung endpoint would otherwise cost every check that uses it a whole request timeout.
   */
  async beforeRequest(
    operation?: string,
    /** Told before each wait, with when it ends (ms since the epoch). */
    onWait?: (until: number) => void,
  ): Promise<{ unanswered: number; cuts: number; paced: boolean }> {
    let signals = this.read();
    let waited = false;
    let retaken = 0;
    for (;;) {
      const now = Date.now();
      let sendAt = Math.max(now, signals.pausedUntil);
      let cuts = signals.cuts;
      let paced = false;
      let interval = 0;
      if (this.options.pace > 0 || signals.rate > 0) {
        [sendAt, paced, cuts, interval] = this.update((signals) => {
          const interval = 1000 / this.paceOf(signals);
          const free = Math.max(Date.now(), signals.pausedUntil);
          const at = Math.max(free, signals.nextSlotAt);
          signals.nextSlotAt = at + interval;
          return [at, at > free, signals.cuts, interval];
        });
      }
      if (sendAt <= now && !waited) {
        return { unanswered: operation ? (signals.unanswered[operation] ?? 0) : 0, cuts, paced };
      }
      onWait?.(sendAt);
      await sleep(Math.max(0, sendAt - now));
      // A slot taken before a cut (or a pause) was one of the old pace: the request takes
      // another, at the new one, lest every request queued at the old pace be refused too.
      // So does one that woke more than a slot late (a worker starved of CPU): the slots that
      // passed meanwhile are other requests', and sent together with them it would be a burst
      // the pace exists to prevent. A few times at most, so a starved machine still sends.
      const before = signals;
      signals = this.read();
      waited = true;
      const stale = paced && Date.now() - sendAt > interval && retaken < STALE_RETAKES;
      if (stale) retaken++;
      if (!stale && signals.cuts === before.cuts && signals.pausedUntil <= Date.now()) {
        return { unanswered: operation ? (signals.unanswered[operation] ?? 0) : 0, cuts, paced };
      }
    }
  }

  /** The run's pace: the one learned, else the one set (0: none). */
  private paceOf(signals: Signals): number {
    return signals.rate > 0 ? signals.rate : this.options.pace;
  }

  /**
   * An answer that was no refusal: its time is kept (the first refusal learns from them), and a
   * learned pace grows a little, up to the pace set, if one was; only when the request waited for
   * its slot (`paced`): a run that sends slower than its pace, waiting on answers, shows nothing
   * of what the target would take faster, and its pace would otherwise grow without bound.
   */
  accepted(paced: boolean): void {
    appendFileSync(this.answerTimes, `${Date.now()}\n`);
    if (!paced || this.read().rate === 0) return;
    this.update((signals) => {
      if (signals.rate === 0) return;
      const ceiling = this.options.pace > 0 ? this.options.pace : Number.POSITIVE_INFINITY;
      signals.rate = Math.min(ceiling, signals.rate + RAISE_PER_ANSWER);
    });
  }

  /**
   * The target refused a request (429, 503) whose slot was taken after `cuts` cuts (what
   * beforeRequest returned): the pace is cut, unless it was cut since, for a request sent at the
   * same pace. Returns the pace now.
   */
  refused(cuts: number): number {
    return this.update((signals) => {
      if (cuts < signals.cuts) return this.paceOf(signals);
      const before = this.paceOf(signals);
      const next = before > 0 ? before * LATER_CUT : this.answersWithin(RATE_WINDOW_MS) * FIRST_CUT;
      signals.cuts++;
      // No answer yet to learn from: still unpaced, the pause alone holds the run; the next
      // refusal learns.
      if (next === 0) return 0;
      signals.rate = Math.max(MIN_PACE, next);
      // The slots handed out at the old pace are taken again (beforeRequest), at the new one.
      signals.nextSlotAt = Date.now() + 1000 / signals.rate;
      return signals.rate;
    });
  }

  /** Answers (no refusals) the run got in the last `windowMs`, per second. */
  private answersWithin(windowMs: number): number {
    let text: string;
    try {
      const size = sizeOf(this.answerTimes);
      const start = Math.max(0, size - ANSWER_TAIL_BYTES);
      const buffer = Buffer.alloc(size - start);
      const file = openSync(this.answerTimes, 'r');
      try {
        readSync(file, buffer, 0, buffer.length, start);
      } finally {
        closeSync(file);
      }
      text = buffer.toString('utf8');
    } catch {
      return 0;
    }
    const now = Date.now();
    // The first line of the tail may be cut: a partial time is smaller than any, and not counted.
    const recent = text
      .split('\n')
      .map(Number)
      .filter((time) => time >= now - windowMs);
    if (recent.length === 0) return 0;
    // A run younger than the window: over the time it has answered (a quarter second at least).
    const span = Math.max(MIN_SPAN_MS, now - Math.min(...recent));
    return (recent.length * 1000) / span;
  }

  /**
   * The target asked to wait `delayMs`: the whole run pauses until then. Returns how much this
   * pause added to the run's waiting, or `spent` when the run's waiting would pass its bound.
   */
  pause(delayMs: number): { spent: false; addedMs: number } | { spent: true; pausedMs: number } {
    return this.update((signals) => {
      const now = Date.now();
      const until = now + delayMs;
      const added = Math.max(0, until - Math.max(signals.pausedUntil, now));
      if (signals.pausedMs + added > this.options.maxWaitMs) {
        return { spent: true as const, pausedMs: signals.pausedMs };
      }
      signals.pausedMs += added;
      signals.pausedUntil = Math.max(signals.pausedUntil, until);
      return { spent: false as const, addedMs: added };
    });
  }
}
