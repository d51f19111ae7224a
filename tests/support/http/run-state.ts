/**
 * What the worker processes of one run share about one target: the create requests sent against
 * the write budget, the pace's next free slot, and the pause the target asked for (a 429, or a
 * 503 with Retry-After). It is a small JSON file in the system's temporary folder, one per run
 * id and target, read freely and changed under a lock (a directory, whose creation is atomic),
 * then replaced whole (a rename is atomic too), so a reader never sees half a file.
 *
 * A pause is the run's, not the request's: a gateway that answers 429 limits the client, so every
 * worker waits until the time it named. The pauses add up to the run's waiting, which is bounded.
 */
import { createHash } from 'node:crypto';
import {
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

interface SharedState {
  /** Create requests counted against the budget. */
  creates: number;
  /** With a pace: the earliest time the next request may go. */
  nextSlotAt: number;
  /** The target asked the run to wait until then. */
  pausedUntil: number;
  /** Milliseconds the run has been paused in all (pauses do not overlap, so this is wall time). */
  pausedMs: number;
}

const empty: SharedState = { creates: 0, nextSlotAt: 0, pausedUntil: 0, pausedMs: 0 };

/** The folder of every run's state files; removed run by run at the end (removeRunState). */
export const stateDir = join(tmpdir(), 'petstore-conformance');

/** The state file of a run and target. */
export function stateFile(runId: string, baseUrl: string): string {
  const target = createHash('sha256').update(baseUrl).digest('hex').slice(0, 12);
  return join(stateDir, `${runId}-${target}.json`);
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

const LOCK_STALE_MS = 5_000;
const spin = new Int32Array(new SharedArrayBuffer(4));

export interface RunStateOptions {
  runId: string;
  baseUrl: string;
  /** At most this many create requests in this run against this target. */
  maxPets: number;
  /** Requests a second across the run's workers; 0: as fast as the target answers. */
  pace: number;
  /** The run waits at most this long in all for a target that asks it to wait. */
  maxWaitMs: number;
}

export class RunState {
  private readonly file: string;
  private readonly lock: string;

  constructor(readonly options: RunStateOptions) {
    mkdirSync(stateDir, { recursive: true });
    this.file = stateFile(options.runId, options.baseUrl);
    this.lock = `${this.file}.lock`;
  }

  private read(): SharedState {
    try {
      return { ...empty, ...(JSON.parse(readFileSync(this.file, 'utf8')) as SharedState) };
    } catch {
      return { ...empty };
    }
  }

  /** Runs `change` on the state under the lock and saves what it leaves. */
  private update<T>(change: (state: SharedState) => T): T {
    this.acquire();
    try {
      const state = this.read();
      const result = change(state);
      const temporary = `${this.file}.${process.pid}`;
      writeFileSync(temporary, JSON.stringify(state));
      renameSync(temporary, this.file);
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
    const { maxPets } = this.options;
    const allowed = this.update((state) => {
      if (state.creates >= maxPets) return false;
      state.creates += 1;
      return true;
    });
    if (!allowed) {
      throw new WriteBudgetExceeded(
        `Write budget spent: this run may send at most ${maxPets} create requests to the target ` +
          '(CONFORMANCE_MAX_PETS). Raise it, or point the suite at a target with more pets already in it.',
      );
    }
  }

  /** A create the target did not process (it asked to wait): it does not count. */
  releaseCreate(): void {
    this.update((state) => {
      state.creates = Math.max(0, state.creates - 1);
    });
  }

  /** Waits until the run may send its next request: after any pause, and on the pace. */
  async beforeRequest(): Promise<void> {
    const now = Date.now();
    let sendAt = now;
    if (this.options.pace > 0) {
      const interval = 1000 / this.options.pace;
      sendAt = this.update((state) => {
        const at = Math.max(Date.now(), state.nextSlotAt, state.pausedUntil);
        state.nextSlotAt = at + interval;
        return at;
      });
    } else {
      sendAt = Math.max(now, this.read().pausedUntil);
    }
    if (sendAt > now) await sleep(sendAt - now);
  }

  /**
   * The target asked to wait `delayMs`: the whole run pauses until then. Returns how much this
   * pause added to the run's waiting, or `spent` when the run's waiting would pass its bound.
   */
  pause(delayMs: number): { spent: false; addedMs: number } | { spent: true; pausedMs: number } {
    return this.update((state) => {
      const now = Date.now();
      const until = now + delayMs;
      const added = Math.max(0, until - Math.max(state.pausedUntil, now));
      if (state.pausedMs + added > this.options.maxWaitMs) {
        return { spent: true as const, pausedMs: state.pausedMs };
      }
      state.pausedMs += added;
      state.pausedUntil = Math.max(state.pausedUntil, until);
      return { spent: false as const, addedMs: added };
    });
  }
}
