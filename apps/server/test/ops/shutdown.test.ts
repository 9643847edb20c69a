import { readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';
import { waitFor } from '../support/wait.ts';
import { type Server, serverEnv, startServer } from './process.ts';

/**
 * The real process (docs/configuration.md "Health and shutdown"): `npm start` prints its URL and serves;
 * SIGTERM drains: in-flight requests finish, new connections are refused, the process exits 0.
 */
const serverDir = fileURLToPath(new URL('../..', import.meta.url));
const repoDir = fileURLToPath(new URL('../../../..', import.meta.url));
const servers: Server[] = [];
let pg: TestDatabase | undefined;
afterAll(async () => {
  for (const s of servers) s.kill();
  await Promise.all(servers.map((s) => s.exited));
  await pg?.drop();
  for (const s of servers) rmSync(s.dataDir, { recursive: true, force: true });
});

const connect = (url: string) =>
  new Promise<string>((resolve) => {
    const req = httpRequest(`${url}/healthz`, { agent: false }, (res) => {
      res.resume();
      resolve(String(res.statusCode));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    req.end();
  });

describe('npm start', () => {
  it('applies migrations on a fresh DATA_DIR with PGlite, prints the URL and answers /healthz', async () => {
    const server = startServer('npm', ['start', '--silent'], { cwd: repoDir, env: serverEnv() });
    servers.push(server);
    const url = await server.ready;
    expect(url).toMatch(/^http:\/\/localhost:\d+$/);
    const port = new URL(url).port;
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()).toEqual({ status: 'ready' });
    server.kill();
  }, 90_000);
});

describe('SIGTERM', () => {
  it('finishes the in-flight request, refuses new connections and exits 0', async () => {
    // On PostgreSQL runs the server gets its own fresh database; otherwise PGlite in a new DATA_DIR.
    // (The npm start test above covers a fresh DATA_DIR; here PGlite starts from the migrated template.)
    const env = serverEnv({ SHUTDOWN_GRACE_MS: '8000' });
    if (process.env.DATABASE_URL) {
      pg = await freshDatabase();
      env.DATABASE_URL = pg.url;
      await pg.database.close();
    } else {
      const template = new Blob([readFileSync(inject('pgliteTemplate'))]);
      const seeded = await openDatabase({
        kind: 'pglite',
        dataDir: join(env.DATA_DIR!, 'pglite'),
        loadDataDir: template,
      });
      await seeded.close();
    }
    const server = startServer(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env });
    servers.push(server);
    const base = (await server.ready).replace('localhost', '127.0.0.1');

    // A signup whose body arrives slowly: the request is in flight when SIGTERM lands.
    const body = JSON.stringify({ email: 'drain@example.com', password: 'long enough pw', name: 'Drain' });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${base}/api/auth/signup`,
        {
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      void (async () => {
        await new Promise<void>((connected) =>
          req.once('socket', (socket) =>
            socket.connecting ? socket.once('connect', connected) : connected(),
          ),
        );
        // In flight: the server has answered a request sent after this one's headers were.
        expect(await connect(base)).toBe('200');
        server.child.kill('SIGTERM');
        await waitFor(
          async () => {
            refused = await connect(base);
            return refused === 'ECONNREFUSED';
          },
          10_000,
          'new connections refused',
        );
        req.end(body.slice(10));
      })().catch(reject);
    });
    let refused = '';
    const started = Date.now();
    const done = await response;
    expect(done.status, done.body).toBe(201);
    expect(JSON.parse(done.body).data.user.email).toBe('drain@example.com');
    expect(refused).toBe('ECONNREFUSED');
    expect(await server.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(server.output()).not.toMatch(/"level":(50|60)/);
  }, 90_000);
});
