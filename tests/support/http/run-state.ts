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
 * - signals, rare and read before every request: a pause the target asked for (a 429, or a 503
 *   with Retry-After), the operations that stopped answering; and, with a pace, the next free
 *   slot. These are changed under a lock (a directory, whose creation is atomic) and replaced
 *   whole (a rename is atomic too), so a reader never sees half a file.
 *
 * A pause is the run's, not the request's: a gateway that answers 429 limits the client, so every
 * worker waits until the time it named. The pauses add up to the run's waiting, which is bounded.
 */
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  mkdirSync,
  readFileSync,
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
}

const quiet: Signals = { unanswered: {}, nextSlotAt: 0, pausedUntil: 0, pausedMs: 0 };

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
  private readonly createdIds: string;
  private readonly unwritable: string;
  private readonly signals: string;
  private readonly lock: string;

  constructor(readonly options: RunStateOptions) {
    mkdirSync(stateDir, { recursive: true });
    const prefix = statePrefix(options.runId, options.baseUrl);
    this.creates = `${prefix}.creates`;
    this.released = `${prefix}.released`;
    this.createdIds = `${prefix}.ids`;
    this.unwritable = `${prefix}.unwritable`;
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
    appendFileSync(this.createdIds, `${id}\n`);
  }

  /** How many creates of this run, in all its workers, were answered with this id. */
  timesCreated(id: bigint): number {
    let text: string;
    try {
      text = readFileSync(this.createdIds, 'utf8');
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
   * Waits until the run may send its next request: after any pause, and on the pace. Returns how
   * many requests of this operation in a row went unanswered (timed out): from UNANSWERED_LIMIT
   * on, the client sends no more of them, since a hung endpoint would otherwise cost every check
   * that uses it a whole request timeout.
   */
  async beforeRequest(operation?: string): Promise<{ unanswered: number }> {
    const now = Date.now();
    const signals = this.read();
    let sendAt = Math.max(now, signals.pausedUntil);
    if (this.options.pace > 0) {
      const interval = 1000 / this.options.pace;
      sendAt = this.update((signals) => {
        const at = Math.max(Date.now(), signals.nextSlotAt, signals.pausedUntil);
        signals.nextSlotAt = at + interval;
        return at;
      });
    }
    if (sendAt > now) await sleep(sendAt - now);
    return { unanswered: operation ? (signals.unanswered[operation] ?? 0) : 0 };
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
