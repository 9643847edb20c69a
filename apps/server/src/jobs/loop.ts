export type LoopLog = { error(obj: object, msg: string): void };

/**
 * A worker loop: runs `step` until it reports no more work, then sleeps `idleMs` or until woken.
 * A failing step is logged and retried after a pause; it never kills the process.
 */
export class Loop {
  private running = false;
  private done: Promise<void> = Promise.resolve();
  private waiter: (() => void) | null = null;
  private woken = false;
  private finished = 0;

  constructor(
    private readonly name: string,
    private readonly step: () => Promise<boolean>,
    private readonly idleMs: number,
    private readonly log?: LoopLog,
  ) {}

  /** Steps finished so far, failed ones included: shows that the loop has run (tests, status). */
  get passes(): number {
    return this.finished;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.done = this.run();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let more = false;
      try {
        more = await this.step();
        this.finished++;
      } catch (err) {
        this.finished++;
        this.log?.error({ err, loop: this.name }, 'worker step failed');
        await this.sleep(1000);
        continue;
      }
      if (!more && this.running) await this.sleep(this.idleMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve();
      }, ms);
      this.waiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Runs the next step now instead of after the idle pause. */
  wake(): void {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = null;
      waiter();
    } else {
      this.woken = true;
    }
  }

  /** Finishes the current step, then stops. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.done;
  }
}
