/** The part of a pino logger (Fastify's `app.log`) that work off the request path uses. */
export type Log = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

/**
 * Where work off the request path (background jobs, credit alerts) logs: on `AppContext` as
 * `ctx.log`. The context is built before the app and its logger, so main.ts attaches the app's
 * logger once it exists; until then, and in tests that attach none, nothing is written.
 */
export class LogSink implements Log {
  private target: Log | undefined;

  attach(target: Log | undefined): void {
    this.target = target;
  }

  info(obj: object, msg: string): void {
    this.target?.info(obj, msg);
  }

  warn(obj: object, msg: string): void {
    this.target?.warn(obj, msg);
  }

  error(obj: object, msg: string): void {
    this.target?.error(obj, msg);
  }
}
