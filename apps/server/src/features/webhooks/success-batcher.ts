import type { Executor } from '../../db/client.ts';
import { finishSuccesses, type SuccessRecord } from './queue.repo.ts';

/**
 * Collects successful attempts and writes them together (at most `maxBatch` per statement,
 * at most `delayMs` later). Each caller waits for its own row's write, so an attempt's slot is
 * released only once its outcome is stored.
 */
export class SuccessBatcher {
  private pending: { row: SuccessRecord; resolve: (ok: boolean) => void; reject: (e: unknown) => void }[] =
    [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Executor,
    private readonly maxBatch = 200,
    private readonly delayMs = 5,
  ) {}

  record(row: SuccessRecord): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      if (this.pending.length >= this.maxBatch) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
    });
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
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
