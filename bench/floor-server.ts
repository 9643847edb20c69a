/**
 * The floor of bench/api.ts: a bare node:http server doing what any implementation of these two
 * routes must do, through the same driver as the app: hash the credential (SHA-256), SELECT it by
 * hash, SELECT one workspace row, answer JSON. Prints "READY <port>".
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import pg from 'pg';

type Query = <T>(text: string, params: unknown[]) => Promise<T[]>;

async function openDriver(): Promise<{ query: Query; close(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
    return {
      query: async (text, params) => (await pool.query(text, params)).rows,
      close: () => pool.end(),
    };
  }
  const db = await PGlite.create({
    dataDir: join(process.env.DATA_DIR ?? './data', 'pglite'),
    extensions: { vector },
  });
  return {
    query: async <T>(text: string, params: unknown[]) => (await db.query<T>(text, params)).rows,
    close: () => db.close(),
  };
}

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
type WorkspaceRow = { id: string; name: string; slug: string; plan: string; created_at: Date };

const db = await openDriver();
const workspace = async (id: string) =>
  (
    await db.query<WorkspaceRow>('select id, name, slug, plan, created_at from workspaces where id = $1', [
      id,
    ])
  )[0];

const server = createServer(async (req, res) => {
  const send = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  try {
    if (req.url?.startsWith('/session/')) {
      const token = /parley\.session-token=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
      const [session] = await db.query<{ user_id: string }>(
        'select user_id from sessions where token_hash = $1 and expires_at > now() limit 1',
        [sha256(token)],
      );
      if (!session) return send(401, { error: 'no session', code: 'unauthorized:api' });
      const ws = await workspace(req.url.slice('/session/'.length));
      return ws ? send(200, { data: ws }) : send(404, { error: 'not found', code: 'not_found:api' });
    }
    if (req.url === '/key') {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const [key] = await db.query<{ workspace_id: string; scopes: string[] }>(
        'select id, workspace_id, scopes from api_keys where key_hash = $1 limit 1',
        [sha256(token)],
      );
      if (!key) return send(401, { error: 'bad key', code: 'unauthorized:api' });
      const ws = await workspace(key.workspace_id);
      return ws ? send(200, { data: { ...ws, scopes: key.scopes } }) : send(404, { error: 'not found' });
    }
    send(404, { error: 'not found' });
  } catch (err) {
    send(500, { error: String(err) });
  }
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void db.close().finally(() => process.exit(0));
});
