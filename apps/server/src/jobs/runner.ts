import type { AppContext } from '../context.ts';
import type { Job, JobDefinition, JobName } from './catalog.ts';
import { listen } from './listen.ts';
import { Loop } from './loop.ts';

type Running = { loop: Loop; job: Job; unlisten: Promise<() => Promise<void>> };

const noop = async () => undefined;

/**
 * The jobs of the catalog (jobs/catalog.ts) running in this process: on `AppContext` as
 * `ctx.jobs`, built empty by bootstrap.ts and filled by `startJobs`. Services wake a job by name
 * after committing work for it (`ctx.jobs.wake('ingestion')`); a job that does not run in this
 * process ignores the wake, and the process that runs it finds the rows on its next poll.
 */
export class Jobs {
  private readonly running = new Map<JobName, Running>();

  /** Runs the named job's next pass now instead of after its pause, if it runs here. */
  wake(name: JobName): void {
    this.running.get(name)?.loop.wake();
  }

  /** Whether the named job runs in this process (JOBS, docs/jobs.md "Which process runs which job"). */
  runs(name: JobName): boolean {
    return this.running.has(name);
  }

  /** The jobs running in this process. */
  names(): JobName[] {
    return [...this.running.keys()];
  }

  /** Passes the named job has finished since it started here; undefined when it does not run here. */
  passes(name: JobName): number | undefined {
    return this.running.get(name)?.loop.passes;
  }

  /** Resolves once the named jobs' LISTENs are in place (or have failed over to polling). */
  async listening(names: JobName[] = this.names()): Promise<void> {
    await Promise.all(names.map((n) => this.running.get(n)?.unlisten));
  }

  /** Starts one job: its first pass runs at once. Use `startJobs` (catalog.ts), which calls this. */
  start(ctx: AppContext, name: JobName, def: JobDefinition, everyMs: number): void {
    if (this.running.has(name)) throw new Error(`The job ${name} is already running`);
    const job = def.create(ctx);
    const loop = new Loop(name, (signal) => job.step(signal), everyMs, ctx.log);
    const unlisten = def.listen
      ? listen(ctx.database, def.listen, () => loop.wake(), { log: ctx.log }).catch((err) => {
          ctx.log.error({ err, job: name }, 'LISTEN failed; the job falls back to polling');
          return noop;
        })
      : Promise.resolve(noop);
    this.running.set(name, { loop, job, unlisten });
    loop.start();
  }

  /**
   * Stops the named jobs (all by default): no new pass starts, LISTENs end, and the pass in hand
   * (and work it left running, such as webhook attempts) gets up to `graceMs` to finish. Work not
   * finished by then stays claimed until its lease expires, and any process takes it again.
   * Resolves true when everything finished within the grace.
   */
  async stop(graceMs: number, names: JobName[] = this.names()): Promise<boolean> {
    const stopping = names.flatMap((name) => {
      const r = this.running.get(name);
      if (!r) return [];
      this.running.delete(name);
      // Loop.stop() marks the loop stopped before its first await: no pass starts after this.
      return [{ ...r, stopped: r.loop.stop() }];
    });
    await Promise.all(stopping.map(async (r) => (await r.unlisten)()));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), graceMs);
    });
    const finished = Promise.allSettled(
      stopping.map(async (r) => {
        await r.stopped;
        await r.job.drain?.();
      }),
    ).then(() => true as const);
    const inTime = await Promise.race([finished, grace]);
    clearTimeout(timer);
    for (const r of stopping) r.job.close?.();
    return inTime;
  }
}
