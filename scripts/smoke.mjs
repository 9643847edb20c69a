// Smoke test of the compiled build as two replicas (docs/deploy.md "Scaling out"); CI runs it
// after the test passes (.ci/run). It starts `node apps/server/dist/main.js` twice against one
// fresh PostgreSQL database and one Redis, then goes through both: sign up on one and read the
// session on the other, build an assistant across them, upload a file on one and see it parsed (in
// its parse process) and ready on the other, chat through the widget on one while
// the other holds the widget's live stream, and see the session's end reach that stream through
// Redis. Then SIGTERM to both: each must exit 0. Any failure exits 1.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/9 \
//     node scripts/smoke.mjs
//
// DATABASE_URL names a server where a database may be created (it is dropped at the end);
// `npm run build` must have run.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'apps/server/dist/main.js');
const { DATABASE_URL, REDIS_URL } = process.env;
if (!DATABASE_URL || !REDIS_URL) fail('set DATABASE_URL and REDIS_URL');
if (!existsSync(entry)) fail('apps/server/dist/main.js is missing: run `npm run build` first');

function fail(message) {
  console.error(`smoke: FAILED: ${message}`);
  process.exit(1);
}
const check = (ok, message) => {
  if (!ok) throw new Error(message);
};
const step = (message) => console.log(`smoke: ${message}`);

/** The compiled servers' parse processes now running (their pids). */
function parseProcesses() {
  const r = spawnSync('pgrep', ['-f', 'apps/server/dist/features/knowledge/ingestion/parse-host.js'], {
    encoding: 'utf8',
  });
  return r.stdout.split('\n').filter(Boolean);
}

function psql(sql) {
  const r = spawnSync('psql', [DATABASE_URL, '-qc', sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql: ${r.stderr}`);
}

/** One replica: plain node on the compiled entry, a free port, its own DATA_DIR. */
function start(name, env) {
  const dataDir = mkdtempSync(join(tmpdir(), `parley-smoke-${name}-`));
  const child = spawn(process.execPath, ['--conditions=parley-dist', '--enable-source-maps', entry], {
    cwd: root,
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  const ready = new Promise((resolve, reject) => {
    const onData = (chunk) => {
      out += chunk;
      const m = /Parley is ready: (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1].replace('localhost', '127.0.0.1'));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    void exited.then((code) => reject(new Error(`${name} exited with ${code} before it was ready:\n${out}`)));
    setTimeout(() => reject(new Error(`${name} not ready after 120 s:\n${out}`)), 120_000).unref();
  });
  return { name, child, dataDir, ready, exited, output: () => out };
}

/** The events of a server-sent event stream as they arrive (JSON `data:` lines). */
async function* events(res) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n');
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      if (data) yield JSON.parse(data);
    }
  }
}

async function call(base, method, path, { headers = {}, body, signal } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    signal,
    headers: { origin: base, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res;
}

async function json(res, expected, what) {
  const text = await res.text();
  check(res.status === expected, `${what}: expected ${expected}, got ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const database = `parley_smoke_${randomBytes(4).toString('hex')}`;
const dbUrl = (() => {
  const u = new URL(DATABASE_URL);
  u.pathname = `/${database}`;
  return u.toString();
})();
const replicas = [];

async function main() {
  psql(`CREATE DATABASE ${database}`);
  // Both start at once on a fresh database: one applies the migrations under the lock.
  const env = { DATABASE_URL: dbUrl, REDIS_URL, ENCRYPTION_KEY: randomBytes(32).toString('hex') };
  replicas.push(start('a', env), start('b', env));
  const [a, b] = await Promise.all(replicas.map((r) => r.ready));
  step(`two replicas ready: ${a} and ${b}`);
  for (const base of [a, b]) {
    await json(await fetch(`${base}/readyz`), 200, `${base}/readyz`);
    check((await fetch(`${base}/widget.js`)).status === 200, `${base}/widget.js`);
    check((await (await fetch(`${base}/`)).text()).includes('<div id="root">'), `${base}/ dashboard`);
  }

  // Sign up on A; the session is read on B.
  const email = `smoke-${Date.now()}@example.com`;
  const signup = await call(a, 'POST', '/api/auth/signup', {
    body: { email, password: 'smoke test password', name: 'Smoke' },
  });
  const cookie = signup.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  await json(signup, 201, 'sign up on A');
  const session = await json(
    await call(b, 'GET', '/api/auth/session', { headers: { cookie } }),
    200,
    'session on B',
  );
  check(session.data.user.email === email, 'B sees the user A signed up');
  step('signed up on A, session read on B');

  // Workspace on A, assistant on B, widget switched on through A.
  const ws = await json(
    await call(a, 'POST', '/api/workspaces', { headers: { cookie }, body: { name: 'Smoke' } }),
    201,
    'workspace on A',
  );
  const assistant = await json(
    await call(b, 'POST', '/api/assistants', {
      headers: { cookie },
      body: { workspaceId: ws.data.id, name: 'Smoke' },
    }),
    201,
    'assistant on B',
  );
  const id = assistant.data.id;
  await json(
    await call(a, 'PATCH', `/api/assistants/${id}/widget`, {
      headers: { cookie },
      body: { isEnabled: true, allowedDomains: ['shop.example.com'] },
    }),
    200,
    'widget on A',
  );

  // A file uploaded on A is read by A's parse process (dist/.../parse-host.js, from PostgreSQL in
  // slices) and its source is ready on B.
  const form = new FormData();
  form.append(
    'file',
    new Blob(['# Returns\n\nRefunds take five business days.\n'], { type: 'text/markdown' }),
    'returns.md',
  );
  const upload = await fetch(`${a}/api/assistants/${id}/sources/files`, {
    method: 'POST',
    headers: { origin: a, cookie },
    body: form,
  });
  const uploaded = await json(upload, 201, 'file upload on A');
  let source;
  for (let i = 0; i < 300 && source?.status !== 'ready' && source?.status !== 'failed'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    source = (
      await json(
        await call(b, 'GET', `/api/assistants/${id}/sources/${uploaded.data.id}`, { headers: { cookie } }),
        200,
        'the source on B',
      )
    ).data;
  }
  check(source?.status === 'ready', `the uploaded file's source: ${JSON.stringify(source)}`);
  check(parseProcesses().length > 0, 'a parse process is running beside the server');
  step('a file uploaded on A was parsed in its parse process and is ready on B');

  // The widget: init on B, live stream on A, a chat on B, history on A, the end on B reaching A.
  const site = { origin: 'https://shop.example.com' };
  const init = await json(
    await call(b, 'POST', `/api/widget/${id}/init`, {
      headers: site,
      body: { sessionId: null, metadata: {} },
    }),
    200,
    'widget init on B',
  );
  const { sessionId, sessionToken } = init.data;
  const widget = { ...site, authorization: `Widget ${sessionToken}` };
  const liveAbort = new AbortController();
  const live = await call(a, 'GET', `/api/widget/${id}/sessions/${sessionId}/events`, {
    headers: widget,
    signal: liveAbort.signal,
  });
  check(live.status === 200, `live stream on A: ${live.status}`);
  const liveEvents = events(live);

  const chat = await call(b, 'POST', `/api/widget/${id}/chat`, {
    headers: widget,
    body: { sessionId, content: 'Hello, is anyone there?' },
  });
  check(
    chat.status === 200,
    `widget chat on B: ${chat.status} ${chat.status === 200 ? '' : await chat.text()}`,
  );
  let finish;
  for await (const event of events(chat)) {
    check(event.type !== 'error', `widget chat on B: ${JSON.stringify(event)}`);
    if (event.type === 'finish') finish = event;
  }
  check(finish?.messageId, 'the reply finished with a stored message');
  const history = await json(
    await call(a, 'GET', `/api/widget/${id}/sessions/${sessionId}/messages`, { headers: widget }),
    200,
    'history on A',
  );
  check(
    history.data.some((m) => m.id === finish.messageId),
    'A lists the reply B streamed',
  );
  step('widget chat on B, its history read on A');

  await json(
    await call(b, 'POST', `/api/widget/${id}/sessions/${sessionId}/end`, { headers: widget, body: {} }),
    200,
    'end the session on B',
  );
  const timeout = setTimeout(() => liveAbort.abort(), 15_000);
  let ended = false;
  try {
    for await (const event of liveEvents) {
      if (event.type === 'ended') {
        ended = true;
        break;
      }
    }
  } catch {
    // Aborted after 15 s without the event.
  }
  clearTimeout(timeout);
  check(ended, "the session's end on B reached the live stream on A (through Redis)");
  step("the session's end on B reached A's live stream");

  // A clean stop: SIGTERM, exit 0.
  for (const r of replicas) r.child.kill('SIGTERM');
  const codes = await Promise.all(replicas.map((r) => r.exited));
  check(
    codes.every((c) => c === 0),
    `exit codes after SIGTERM: ${codes.join(', ')}`,
  );
  for (const r of replicas) {
    check(!/"level":(50|60)/.test(r.output()), `${r.name} logged an error:\n${r.output()}`);
  }
  step('both stopped on SIGTERM with exit 0');
  // The parse process goes with its server.
  for (let i = 0; i < 50 && parseProcesses().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  check(parseProcesses().length === 0, `parse processes left after the stop: ${parseProcesses().join(', ')}`);
  step('no parse process outlived its server');
}

// However it goes, the run ends within three minutes, and takes its replicas with it.
setTimeout(() => {
  for (const r of replicas) r.child.kill('SIGKILL');
  fail('timed out after 180 s');
}, 180_000).unref();

let failure;
try {
  await main();
} catch (err) {
  failure = err;
} finally {
  for (const r of replicas) {
    if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
    rmSync(r.dataDir, { recursive: true, force: true });
  }
  await Promise.all(replicas.map((r) => r.exited));
  try {
    psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  } catch (err) {
    console.error(`smoke: could not drop ${database}: ${err.message}`);
  }
}
if (failure) {
  for (const r of replicas) console.error(`--- ${r.name} output:\n${r.output()}`);
  fail(failure instanceof Error ? failure.message : String(failure));
}
console.log('smoke: passed');
