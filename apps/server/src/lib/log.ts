/** The part of a pino logger (Fastify's `app.log`) that work off the request path uses. */
export type Log = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

type Level = keyof Log;

/** Lines kept from before a logger is attached (say, Redis unreachable while the app is built). */
const EARLY_LINES = 50;

/**
 * Where work off the request path (background jobs, credit alerts) logs: on `AppContext` as
 * `ctx.log`. The context is built before the app and its logger, so main.ts attaches the app's
 * logger once it exists. Lines from before that (the first EARLY_LINES) are written when it is
 * attached; in tests that attach none, nothing is written.
 */
export class LogSink implements Log {
  private target: Log | undefined;
  private early: Array<{ level: Level; obj: object; msg: string }> | undefined = [];

  attach(target: Log | undefined): void {
    this.target = target;
    const early = this.early;
    this.early = undefined;
    if (target) for (const line of early ?? []) target[line.level](line.obj, line.msg);
  }

  private write(level: Level, obj: object, msg: string): void {
    if (this.target) this.target[level](obj, msg);
    else if (this.early && this.early.length < EARLY_LINES) {
      this.early.push({ level, obj, msg });
    }
  }

  info(obj: object, msg: string): void {
    this.write('info', obj, msg);
  }

  warn(obj: object, msg: string): void {
    this.write('warn', obj, msg);
  }

  error(obj: object, msg: string): void {
    this.write('error', obj, msg);
  }
}
