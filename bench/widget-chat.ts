/**
 * The throughput part of bench/widget.ts: closed-loop chat clients against the widget chat (each
 * client its own address and session, as many visitors would be) and, in the same run, the
 * internal chat as the reference floor. Both with the built-in offline responder.
 */
import { Agent } from 'node:http';
import { postChat } from '../apps/server/test/support/chat-client.ts';
import { ipOf, pct, type Server, type Session, SITE } from './widget-support.ts';

const QUESTIONS = [
  'Where is my order?',
  'Can I get a refund?',
  'How long is shipping?',
  'Do you ship abroad?',
];

export type Rate = { label: string; rate: number; ttfe50: number; ttfe99: number };

/** Closed-loop chat clients for `seconds`; chats/s and time to first event. */
async function sample(
  n: number,
  seconds: number,
  request: (i: number, k: number) => { url: string; headers: Record<string, string>; body: string },
) {
  const agent = new Agent({ keepAlive: true, maxSockets: n });
  const ttfe: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      for (let k = 0; performance.now() < t0 + seconds * 1000; k++) {
        const q = request(i, k);
        const r = await postChat(q.url, { headers: q.headers, body: q.body, agent });
        if (r.status !== 200 || !r.finish) throw new Error(`${q.url}: ${r.status} ${r.body.slice(0, 300)}`);
        ttfe.push(r.ttfe);
      }
    }),
  );
  agent.destroy();
  return { chats: ttfe.length, seconds: (performance.now() - t0) / 1000, ttfe };
}

/** Widget chat (each client its own IP and session) against internal chat, alternating rounds. */
export async function throughput(
  server: Server,
  a: { id: string; cookie: string },
  sessions: Session[],
  seconds: number,
  rounds: number,
): Promise<Rate[]> {
  const n = sessions.length;
  const content = (i: number, k: number) => QUESTIONS[(i + k) % QUESTIONS.length]!;
  const widget = (i: number, k: number) => ({
    url: `${server.base}/api/widget/${a.id}/chat`,
    headers: {
      origin: SITE,
      authorization: `Widget ${sessions[i]!.token}`,
      'x-forwarded-for': sessions[i]!.ip,
    },
    body: JSON.stringify({ content: content(i, k), sessionId: sessions[i]!.sessionId }),
  });
  const internal = (i: number, k: number) => ({
    url: `${server.base}/api/chat`,
    headers: { cookie: a.cookie, origin: server.base, 'x-forwarded-for': ipOf(900_000 + i) },
    body: JSON.stringify({ assistantId: a.id, content: content(i, k) }),
  });
  await sample(n, 2, widget);
  await sample(n, 2, internal);
  const got = {
    widget: [] as Awaited<ReturnType<typeof sample>>[],
    internal: [] as Awaited<ReturnType<typeof sample>>[],
  };
  for (let r = 0; r < rounds; r++) {
    got.widget.push(await sample(n, seconds, widget));
    got.internal.push(await sample(n, seconds, internal));
  }
  const rate = (label: string, xs: Awaited<ReturnType<typeof sample>>[]): Rate => {
    const all = xs.flatMap((x) => x.ttfe);
    return {
      label,
      rate: pct(
        xs.map((x) => x.chats / x.seconds),
        50,
      ),
      ttfe50: pct(all, 50),
      ttfe99: pct(all, 99),
    };
  };
  return [
    rate(`POST /api/widget/{id}/chat, ${n} clients, ${n} IPs and sessions`, got.widget),
    rate(`POST /api/chat (internal chat, floor), ${n} clients`, got.internal),
  ];
}
