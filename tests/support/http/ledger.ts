/**
 * Counts what the suite does to a target: requests sent and pets created, per test (reported as
 * annotations and summed by the reporter), and a write budget shared by all workers of a run.
 *
 * The budget is a file per run and target that every create request appends one byte to: appends
 * are atomic, so the file size is the number of create requests across all worker processes.
 */
import { appendFileSync, mkdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class WriteBudgetExceeded extends Error {}

export class Ledger {
  requests = 0;
  petsCreated = 0;
  private readonly budgetFile: string;

  constructor(
    runId: string,
    baseUrl: string,
    private readonly maxPets: number,
  ) {
    const target = createHash('sha256').update(baseUrl).digest('hex').slice(0, 12);
    const dir = join(tmpdir(), 'petstore-conformance');
    mkdirSync(dir, { recursive: true });
    this.budgetFile = join(dir, `${runId}-${target}.creates`);
  }

  /** Reserves one create request against the run's budget, or throws when it is spent. */
  reserveCreate(): void {
    appendFileSync(this.budgetFile, '.');
    const used = statSync(this.budgetFile).size;
    if (used > this.maxPets) {
      throw new WriteBudgetExceeded(
        `Write budget spent: this run may send at most ${this.maxPets} create requests to the target ` +
          '(CONFORMANCE_MAX_PETS). Raise it, or point the suite at a target with more pets already in it.',
      );
    }
  }
}
