import { Socket } from 'node:net';

/** The Redis the Redis tests use: REDIS_URL, else the local default. */
export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * Whether a Redis answers at `url` (a TCP connect within a second). Tests that need one run
 * under `describe.skipIf(!(await redisAnswers()))`, so a machine without Redis skips them visibly.
 */
export async function redisAnswers(url = REDIS_URL): Promise<boolean> {
  const { hostname, port } = new URL(url);
  const answers = await new Promise<boolean>((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(Number(port || 6379), hostname, () => done(true));
  });
  if (!answers) console.warn(`Redis tests skipped: no Redis answers at ${url}`);
  return answers;
}
