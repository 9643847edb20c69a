/**
 * Chat admission (docs/configuration.md "Overload"): beyond what one process can start in time, a
 * new chat is refused at once (503 with Retry-After, http/foreground.ts) rather than queued behind
 * the others, so the chats already started keep their latency and no connection waits until
 * it is reset. A chat is *starting* from its arrival until its reply is under way (the turn stored,
 * its knowledge and history read: chat/respond.ts); the model's own time to answer does not count, so a slow
 * model never sheds anything. A new chat is shed when
 * - the oldest chat still starting arrived more than `maxStartingMs` ago (the process is behind), or
 * - `maxStarting` chats are starting already, or
 * - the event loop's recent delay is above `maxLoopDelayMs` (the process is out of CPU: chats wait
 *   before it even reads them).
 * Any limit at 0 is off.
 */
export type ShedReason = 'behind' | 'full' | 'cpu';

export type AdmissionOptions = { maxStartingMs: number; maxStarting: number; maxLoopDelayMs: number };

/** Sampling period of the event-loop delay probe, and how many samples make "recent". */
const PROBE_MS = 20;
const RECENT = 5;

export class Admission {
  private readonly starting = new Map<number, number>();
  private seq = 0;
  private readonly delays: number[] = [];
  private probe: NodeJS.Timeout | null = null;

  constructor(
    private readonly opts: AdmissionOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Starts the event-loop delay probe (unref'd: it never keeps the process up). */
  start(): void {
    if (this.opts.maxLoopDelayMs <= 0 || this.probe) return;
    let expected = this.now() + PROBE_MS;
    this.probe = setInterval(() => {
      const at = this.now();
      this.recordDelay(Math.max(0, at - expected));
      expected = at + PROBE_MS;
    }, PROBE_MS);
    this.probe.unref();
  }

  stop(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
  }

  /** One event-loop delay sample in ms (the probe's; tests feed their own). */
  recordDelay(ms: number): void {
    this.delays.push(ms);
    if (this.delays.length > RECENT) this.delays.shift();
  }

  /** Why a chat arriving now would be shed, or null when it is admitted. */
  verdict(): ShedReason | null {
    const { maxStartingMs, maxStarting, maxLoopDelayMs } = this.opts;
    if (maxStarting > 0 && this.starting.size >= maxStarting) return 'full';
    if (maxStartingMs > 0) {
      // Map order is insertion order: the first entry is the oldest chat still starting.
      for (const arrived of this.starting.values()) {
        if (this.now() - arrived > maxStartingMs) return 'behind';
        break;
      }
    }
    if (maxLoopDelayMs > 0 && this.delays.length === RECENT && Math.min(...this.delays) > maxLoopDelayMs)
      return 'cpu';
    return null;
  }

  /**
   * Admits a chat arriving now, with the function that marks it started (calling it again, or
   * after the chat ended, is a no-op); or says why it is shed.
   */
  admit(): { started: () => void } | { shed: ShedReason } {
    const shed = this.verdict();
    if (shed !== null) return { shed };
    const id = this.seq++;
    this.starting.set(id, this.now());
    return { started: () => void this.starting.delete(id) };
  }

  /** Chats starting now (tests, diagnostics). */
  get inFlight(): number {
    return this.starting.size;
  }
}
