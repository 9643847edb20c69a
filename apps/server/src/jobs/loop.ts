import { isDatabaseUnavailable } from '../db/client.ts';

export type LoopLog = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

/** The pause after a failed step: 1 s, then, while the database stays away, up to 5 s. */
const FAILURE_PAUSE_MS = 1000;
const OUTAGE_PAUSE_MAX_MS = 5000;

/**
 * A worker loop: runs `step` until it reports no more work, then sleeps `idleMs` or until woken.
 * A failing step is logged and retried after a pause; it never kills the process. While the
 * database cannot be reached (a restart, a failover) the loop logs one warning, retries every
 * 1, 2, 4, then 5 seconds, and logs one info line when a step works again (docs/configuration.md
 * "When PostgreSQL or Redis goes away").
 */
export class Loop {
  private running = false;
  private done: Promise<void> = Promise.resolve();
  private waiter: (() => void) | null = null;
  private woken = false;
  private finished = 0;
  /** Steps failed in a row because the database could not be reached. */
  private outage = 0;
  /** Aborted by `stop`: a long pass (a test run) sees it and hands its work back. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly name: string,
    private readonly step: (signal: AbortSignal) => Promise<boolean>,
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
        more = await this.step(this.stopping.signal);
        this.finished++;
        if (this.outage > 0) {
          this.outage = 0;
          this.log?.info({ loop: this.name }, 'worker resumed: the database answers again');
        }
      } catch (err) {
        this.finished++;
        if (isDatabaseUnavailable(err)) {
          this.outage++;
          if (this.outage === 1) {
            this.log?.warn({ err, loop: this.name }, 'worker paused: the database cannot be reached');
          }
          await this.sleep(Math.min(FAILURE_PAUSE_MS * 2 ** (this.outage - 1), OUTAGE_PAUSE_MAX_MS));
          continue;
        }
        this.log?.error({ err, loop: this.name }, 'worker step failed');
        await this.sleep(FAILURE_PAUSE_MS);
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
    this.stopping.abort();
    this.wake();
    await this.done;
  }
}
