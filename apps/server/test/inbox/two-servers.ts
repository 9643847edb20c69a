import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Server, serverEnv, startServer } from '../ops/process.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';
import { REDIS_URL } from '../support/redis.ts';

/**
 * Two real server processes (`src/main.ts`) sharing one fresh PostgreSQL database and Redis, for
 * the inbox's cross-process tests (two-process.test.ts, auto-assign-race.test.ts).
 */
export type TwoServers = { a: string; b: string; pg: TestDatabase; stop(): Promise<void> };

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

export async function startTwoServers(): Promise<TwoServers> {
  const pg = await freshDatabase();
  const servers: Server[] = [];
  const start = () => {
    const env = serverEnv({
      DATABASE_URL: pg.url as string,
      REDIS_URL,
      WIDGET_RATE_LIMIT_PER_MINUTE: '100000',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    });
    const server = startServer(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env });
    servers.push(server);
    return server.ready.then((url) => url.replace('localhost', '127.0.0.1'));
  };
  const [a, b] = await Promise.all([start(), start()]);
  return {
    a: a as string,
    b: b as string,
    pg,
    async stop() {
      for (const s of servers) s.kill();
      await Promise.all(servers.map((s) => s.exited));
      await pg.database.close();
      await pg.drop();
      for (const s of servers) rmSync(s.dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON call as a signed-in member (the cookie), with the process's own Origin; throws on an error answer. */
export async function memberCall(base: string, method: string, path: string, cookie: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      origin: base,
      cookie,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { res, json: text ? JSON.parse(text) : undefined };
}
