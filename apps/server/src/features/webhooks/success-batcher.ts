import type { Executor } from '../../db/client.ts';
import { finishSuccesses, type SuccessRecord } from './queue.repo.ts';

type Waiting = { row: SuccessRecord; resolve: (ok: boolean) => void; reject: (e: unknown) => void };

/**
 * Collects successful attempts and writes them together (at most `maxBatch` per statement, the
 * first at most `delayMs` after it came). One write at a time: what arrives while a write is under
 * way goes in the next, started as soon as that one ends, so the batches grow as the database slows
 * (group commit) instead of the writes queueing behind each other a few rows apiece (docs/performance.md
 * "Point 5 again, against the base, same run (2026-11-29, afternoon)"). Each caller waits
 * for its own row's write, so an attempt's slot is released only once its outcome is stored.
 */
export class SuccessBatcher {
  private pending: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing = false;

  constructor(
    private readonly db: Executor,
    private readonly maxBatch = 200,
    private readonly delayMs = 5,
  ) {}

  record(row: SuccessRecord): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      if (this.writing) return; // the write under way takes it next
      if (this.pending.length >= this.maxBatch) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
    });
  }

  private async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.pending.length > 0) await this.write(this.pending.splice(0, this.maxBatch));
    } finally {
      this.writing = false;
    }
  }

  private async write(batch: Waiting[]): Promise<void> {
    try {
      const done = await finishSuccesses(
        this.db,
        batch.map((b) => b.row),
      );
      for (const b of batch) b.resolve(done.has(b.row.id));
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
  }
}
