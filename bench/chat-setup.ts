import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

/** What bench/chat.ts and bench/capacity.ts share: the processes, the knowledge, CPU readings. */

export const WORDS =
  'refund shipping invoice warranty return parcel courier account password billing discount coupon order tracking size colour stock delivery payment card subscription upgrade plan cancel trial export login email phone address store hours holiday kettle mug lamp'.split(
    ' ',
  );
/** Starts a process (its output into a file) and waits for its port. */
export async function start(args: string[], cwd: string, env: NodeJS.ProcessEnv, log: string, ready: RegExp) {
  const fd = openSync(log, 'w');
  // CHAT_BENCH_PROFILE=<dir>: the app writes a V8 CPU profile there when it stops.
  const prof = process.env.CHAT_BENCH_PROFILE;
  const node = [
    ...(prof && args[0] === 'src/main.ts' ? ['--cpu-prof', '--cpu-prof-dir', prof] : []),
    '--import',
    'tsx',
  ];
  const child = spawn(process.execPath, [...node, ...args], { cwd, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  for (const deadline = Date.now() + 120_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const m = ready.exec(readFileSync(log, 'utf8').slice(0, 20_000));
    if (m?.[1]) return { child, base: `http://127.0.0.1:${m[1]}` };
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')} did not start:\n${readFileSync(log, 'utf8').slice(-4000)}`);
    }
  }
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; 0 elsewhere). */
export function cpuOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks, 100 per second
  } catch {
    return 0;
  }
}

/** Q&A pairs and a text source through the API; waits until the server's worker has ingested them. */
export async function seedKnowledge(base: string, headers: Record<string, string>, workspaceId: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: Record<string, unknown> }).data;
  };
  const w = (i: number) => WORDS[i % WORDS.length]!;
  const w2 = (i: number) => WORDS[(i * 7 + 3) % WORDS.length]!;
  const questions = Array.from({ length: 200 }, (_, i) => `How does ${w(i)} work with my ${w2(i)}?`);
  const pairs = questions.map((question, i) => ({
    question,
    answer: `For ${w(i)} and ${w2(i)}: ${WORDS.slice(i % 20, (i % 20) + 12).join(' ')}, reference ${i}.`,
  }));
  const text = Array.from(
    { length: 150 },
    (_, i) => `## ${w(i)} ${w2(i)} ${i}\n\n${Array.from({ length: 50 }, (_, j) => w(i * j + j)).join(' ')}.`,
  ).join('\n\n');
  const assistant = await call('POST', '/api/assistants', {
    workspaceId,
    name: 'Kettle Co',
    instructions: 'You are Kettle Co support. Be brief.',
  });
  const id = assistant.id as string;
  const sources = [
    await call('POST', `/api/assistants/${id}/sources`, { type: 'qa', name: 'FAQ', pairs }),
    await call('POST', `/api/assistants/${id}/sources`, { type: 'text', name: 'Handbook', text }),
  ];
  let chunks = 0;
  for (const deadline = Date.now() + 300_000; ; await new Promise((r) => setTimeout(r, 500))) {
    const now = await Promise.all(sources.map((s) => call('GET', `/api/assistants/${id}/sources/${s.id}`)));
    if (now.some((s) => s.status === 'failed')) throw new Error(`ingestion failed: ${JSON.stringify(now)}`);
    chunks = now.reduce((n, s) => n + Number(s.chunkCount), 0);
    if (now.every((s) => s.status === 'ready')) break;
    if (Date.now() > deadline) throw new Error('ingestion did not finish');
  }
  return { assistantId: id, questions, chunks };
}
