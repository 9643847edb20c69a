/**
 * Chat admission (docs/configuration.md "Overload"): beyond what one process can start in time, a
 * new chat is refused at once (503 with Retry-After, http/foreground.ts) rather than queued behind
 * the others, so the chats already started keep their latency and no connection waits until
 * it is reset. A chat is *starting* from its arrival until its reply is under way (the turn stored,
 * its knowledge and history read: chat/respond.ts); the model's own time to answer does not count, so a slow
 * model never sheds anything. A new chat is shed when
 * - as many chats are starting as the adaptive limit allows (`targetStartMs`, see `adapt`), or
 * - the oldest chat still starting arrived more than `maxStartingMs` ago (the process is behind), or
 * - `maxStarting` chats are starting already, or
 * - the event loop's recent delay is above `maxLoopDelayMs` (the process is out of CPU: chats wait
 *   before it even reads them), or it was late for more than half of the last second (long
 *   stalls, as PGlite's work on a loaded process makes, between which the loop is briefly on time),
 *   or it is more than `maxLoopDelayMs` late right now (its probe overdue: the chat was read at the
 *   end of a stall, with the others that queued behind it) after being late for more than a quarter
 *   of the last second; these count only once a chat has come (a process starting is late, not
 *   overloaded).
 * Any limit at 0 is off.
 */
export type ShedReason = 'behind' | 'full' | 'cpu';

export type AdmissionOptions = {
  maxStartingMs: number;
  maxStarting: number;
  maxLoopDelayMs: number;
  /**
   * The least starting time (ms, smoothed) above which the adaptive limit comes down; 0: no
   * adaptive limit. The limit comes down above the larger of this and QUIET_FACTOR times the chats'
   * own quiet starting time (see `target`).
   */
  targetStartMs?: number;
};

/** Sampling period of the event-loop delay probe, and how many samples make "recent". */
const PROBE_MS = 20;
const RECENT = 5;
/** The window over which the loop's lateness is summed, and the share of it that sheds. */
const LAG_WINDOW_MS = 1000;
const LAG_SHARE = 0.5;
/**
 * The share of the last LAG_WINDOW_MS the loop must have been late for a probe overdue to shed: one
 * long pause on an otherwise prompt loop (a collection, a large response) sheds nothing.
 */
const OVERDUE_LAG_SHARE = 0.25;
/** The adaptive limit's floor and ceiling, where it starts, and the weight of a new starting time in its average. */
const MIN_LIMIT = 2;
const MAX_LIMIT = 1000;
const FIRST_LIMIT = 8;
const SMOOTHING = 0.1;
/**
 * The quiet starting time: the tenth percentile of the starting times of the last RECENT_STARTS
 * chats that started alone (no other chat starting when it came or coming while it started), read
 * again at most every QUIET_REFRESH_MS: what a chat's own work takes here (its knowledge's search,
 * this machine's speed). The target is QUIET_FACTOR times that when larger than `targetStartMs`.
 */
const RECENT_STARTS = 256;
const QUIET_PERCENTILE = 0.1;
const QUIET_FACTOR = 3;
const QUIET_REFRESH_MS = 250;
/** Fewer chats started alone than this tell nothing: the target is `targetStartMs`. */
const QUIET_SAMPLES = 20;
/**
 * Chats that start within this long after one was shed are not counted: under overload even a
 * chat alone waits for the CPU the others' streams take, and the quiet time is what it was before.
 */
const QUIET_AFTER_SHED_MS = 1000;

export class Admission {
  private readonly starting = new Map<number, number>();
  private seq = 0;
  private readonly delays: number[] = [];
  /** The delay samples of the last LAG_WINDOW_MS: when each was taken, and how late. */
  private readonly lateness: Array<{ at: number; ms: number }> = [];
  private lateSum = 0;
  private probe: NodeJS.Timeout | null = null;
  /** When the probe's next sample is due: a loop stalled past it is late now, before the probe can say. */
  private probeDue = 0;
  private limit = FIRST_LIMIT;
  /** Average starting time of the recent chats (exponentially weighted), ms; null before the first. */
  private average: number | null = null;
  private lastCut = Number.NEGATIVE_INFINITY;
  /** The last RECENT_STARTS starting times (a ring), and the quiet time read from them, when. */
  private readonly starts: number[] = [];
  private nextStart = 0;
  private quiet = 0;
  private quietAt = Number.NEGATIVE_INFINITY;
  private lastShed = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly opts: AdmissionOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Starts the event-loop delay probe (unref'd: it never keeps the process up). */
  start(): void {
    if (this.opts.maxLoopDelayMs <= 0 || this.probe) return;
    this.probeDue = this.now() + PROBE_MS;
    this.probe = setInterval(() => {
      const at = this.now();
      this.recordDelay(Math.max(0, at - this.probeDue));
      this.probeDue = at + PROBE_MS;
    }, PROBE_MS);
    this.probe.unref();
  }

  stop(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
  }

  /** One event-loop delay sample in ms (the probe's; tests feed their own). */
  recordDelay(ms: number): void {
    // Before the first chat, a late loop is the process starting (loading what its first requests
    // need), not chats queueing: it sheds nothing.
    if (this.seq === 0) return;
    this.delays.push(ms);
    if (this.delays.length > RECENT) this.delays.shift();
    if (ms <= 0) return;
    this.lateness.push({ at: this.now(), ms });
    this.lateSum += ms;
  }

  /** How much of the last LAG_WINDOW_MS the event loop was late (0 to 1). */
  private lateShare(): number {
    const since = this.now() - LAG_WINDOW_MS;
    while (this.lateness.length > 0 && this.lateness[0]!.at <= since)
      this.lateSum -= this.lateness.shift()!.ms;
    return this.lateSum / LAG_WINDOW_MS;
  }

  /** Why a chat arriving now would be shed, or null when it is admitted. */
  verdict(): ShedReason | null {
    const { maxStartingMs, maxStarting, maxLoopDelayMs } = this.opts;
    if (maxStarting > 0 && this.starting.size >= maxStarting) return 'full';
    if ((this.opts.targetStartMs ?? 0) > 0 && this.starting.size >= Math.floor(this.limit)) return 'full';
    if (maxStartingMs > 0) {
      // Map order is insertion order: the first entry is the oldest chat still starting.
      for (const arrived of this.starting.values()) {
        if (this.now() - arrived > maxStartingMs) return 'behind';
        break;
      }
    }
    if (maxLoopDelayMs > 0 && this.delays.length === RECENT && Math.min(...this.delays) > maxLoopDelayMs)
      return 'cpu';
    if (maxLoopDelayMs > 0 && this.lateShare() > LAG_SHARE) return 'cpu';
    if (maxLoopDelayMs > 0 && this.overdue() > maxLoopDelayMs && this.lateShare() > OVERDUE_LAG_SHARE)
      return 'cpu';
    return null;
  }

  /**
   * How late the loop is right now (ms): the requests that queued during a stall are read at its
   * end, before the probe's timer runs again and records it, so without this they were all let in
   * on the lateness of before the stall (docs/performance.md "Chat capacity"). 0 before a chat has
   * come, and while the probe is not running.
   */
  private overdue(): number {
    if (!this.probe || this.seq === 0) return 0;
    return Math.max(0, this.now() - this.probeDue);
  }

  /**
   * Admits a chat arriving now, with the function that marks it started (calling it again is a
   * no-op); or says why it is shed. A chat that ends before it started (refused later, its client
   * gone: http/foreground.ts calls it when the response closes) counts as started then.
   */
  admit(): { started: () => void } | { shed: ShedReason } {
    const shed = this.verdict();
    if (shed !== null) {
      this.lastShed = this.now();
      return { shed };
    }
    const alone = this.starting.size === 0;
    const id = this.seq++;
    const arrived = this.now();
    this.starting.set(id, arrived);
    return {
      started: () => {
        // Alone: nothing else was starting when it came nor came while it started.
        if (this.starting.delete(id)) this.adapt(this.now() - arrived, alone && this.seq === id + 1);
      },
    };
  }

  /**
   * The adaptive limit on chats starting at once (additive increase, multiplicative decrease, as
   * TCP paces a connection): while the recent chats' average starting time is above the target,
   * each started chat cuts the limit by a quarter, at most once in one starting time (one slow
   * stretch cuts once, not once a chat); while it is within, each raises it by 1/limit (one a
   * limit's worth of chats). Under overload the limit settles where chats start within the target,
   * whatever this machine's speed; a quiet process never comes near it. Never below MIN_LIMIT.
   */
  private adapt(ms: number, alone: boolean): void {
    if ((this.opts.targetStartMs ?? 0) <= 0) return;
    const at = this.now();
    if (alone && at - this.lastShed >= QUIET_AFTER_SHED_MS) {
      this.starts[this.nextStart] = ms;
      this.nextStart = (this.nextStart + 1) % RECENT_STARTS;
    }
    const target = this.target(at);
    this.average = this.average === null ? ms : this.average + SMOOTHING * (ms - this.average);
    if (this.average > target) {
      if (at - this.lastCut < ms) return;
      this.lastCut = at;
      this.limit = Math.max(MIN_LIMIT, this.limit * 0.75);
    } else {
      const ceiling = this.opts.maxStarting > 0 ? this.opts.maxStarting : MAX_LIMIT;
      this.limit = Math.min(ceiling, this.limit + 1 / this.limit);
    }
  }

  /**
   * The starting time the limit holds chats to: `targetStartMs`, or QUIET_FACTOR times the quiet
   * starting time where the chats' own work is longer (a large knowledge base searched in process,
   * a slower machine or database), so that a process whose chats simply take longer to start is not
   * held to a time none of them could meet; what it bounds is the time they wait on each other.
   */
  private target(at: number): number {
    if (at - this.quietAt >= QUIET_REFRESH_MS) {
      const sorted = [...this.starts].sort((a, b) => a - b);
      this.quiet = sorted.length < QUIET_SAMPLES ? 0 : sorted[Math.floor(sorted.length * QUIET_PERCENTILE)]!;
      this.quietAt = at;
    }
    return Math.max(this.opts.targetStartMs ?? 0, QUIET_FACTOR * this.quiet);
  }

  /** Chats starting now (tests, diagnostics). */
  get inFlight(): number {
    return this.starting.size;
  }

  /** The adaptive limit now, rounded down (tests, diagnostics). */
  get startingLimit(): number {
    return Math.floor(this.limit);
  }
}
