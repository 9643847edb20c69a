/**
 * Foreground and background work of one process (docs/decisions/0009-lanes.md).
 *
 * A chat is foreground from its arrival until its first event leaves: that wait is what a person
 * feels. Work nobody is waiting to see start (storing a reply whose text has already been sent,
 * relaying committed events to webhooks) is background: it starts only while no foreground work
 * is in flight, one task at a time by default (`maxConcurrent`), so under load new answers start
 * first and the bookkeeping of earlier ones follows in the gaps. One at a time: each background
 * task ends with a `finish` after which a client may send its next message, so tasks finishing
 * together bring new chats in together, and those then wait on each other for their first event
 * (decision 0009 has the figures). Nothing is dropped or reordered within a task:
 * background work is only delayed, and never longer than `maxWaitMs` (it then runs even beside
 * foreground work), so it cannot starve however steady the arrivals are. Work that waited that
 * long runs up to `overdueConcurrent` tasks at once, so under a steady overload the bookkeeping
 * keeps pace with the answers instead of queueing one task at a time behind them.
 *
 * Background tasks must be short and bounded (a statement or a few), never a wait on a third
 * party: a slot is held for the whole task.
 */
export type LaneOptions = { maxConcurrent?: number; maxWaitMs?: number; overdueConcurrent?: number };

type Waiter = { start: () => void; deadline: number };

export class Lanes {
  private foregroundInFlight = 0;
  private backgroundRunning = 0;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  private timerFor: Waiter | null = null;
  private readonly maxConcurrent: number;
  private readonly maxWaitMs: number;
  private readonly overdueConcurrent: number;

  constructor(opts: LaneOptions = {}) {
    this.maxConcurrent = opts.maxConcurrent ?? 1;
    this.maxWaitMs = opts.maxWaitMs ?? 1000;
    this.overdueConcurrent = Math.max(this.maxConcurrent, opts.overdueConcurrent ?? 1);
  }

  /** What is in flight now (for tests and diagnostics). */
  get state() {
    return {
      foreground: this.foregroundInFlight,
      background: this.backgroundRunning,
      waiting: this.queue.length,
    };
  }

  /** Marks foreground work as begun; the returned function ends it (calling it again is a no-op). */
  foreground(): () => void {
    this.foregroundInFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.foregroundInFlight--;
      this.pump();
    };
  }

  /** Runs `task` in the background lane: after the foreground work in flight, or `maxWaitMs` at most. */
  async background<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.queue.push({ start: resolve, deadline: performance.now() + this.maxWaitMs });
      this.pump();
    });
  }

  private release(): void {
    this.backgroundRunning--;
    this.pump();
  }

  /** Starts waiting tasks in order while a slot is free and no foreground work is in flight (or the oldest is overdue). */
  private pump(): void {
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      const overdue = performance.now() >= head.deadline;
      if (this.backgroundRunning >= (overdue ? this.overdueConcurrent : this.maxConcurrent)) break;
      if (this.foregroundInFlight > 0 && !overdue) break;
      this.queue.shift();
      this.backgroundRunning++;
      head.start();
    }
    this.armDeadline();
  }

  /**
   * One timer, for the oldest waiting task's deadline, while it waits on foreground work alone
   * (with every slot taken, the task that ends next calls pump).
   */
  private armDeadline(): void {
    const head = this.backgroundRunning < this.overdueConcurrent ? (this.queue[0] ?? null) : null;
    if (head === this.timerFor) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerFor = head;
    if (!head) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerFor = null;
        this.pump();
      },
      Math.max(1, Math.ceil(head.deadline - performance.now())),
    );
    this.timer.unref();
  }
}
