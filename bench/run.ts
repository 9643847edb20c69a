/**
 * `npm run bench`: every benchmark, each reporting against a floor or target measured in the same
 * run. BENCH_ONLY picks some (comma-separated: api, webhooks, knowledge, quality, chat, widget,
 * hostile, inbox, analytics, sms, email, test-runs, capacity; default all). Capacity: CAPACITY_* (bench/capacity.ts). Hostile: HOSTILE_PDF_MB (50), with the API's BENCH_* settings.
 * API: BENCH_DURATION (seconds per measurement, default 8), BENCH_ROUNDS (3), BENCH_CONNECTIONS (50).
 * Knowledge: KB_TOTAL (100000), KB_NAMESPACE (10000), KB_QUERIES (200); see docs/performance.md.
 * Quality: FAQ_SET (a FAQ set file; default the development set), QUALITY_RESPONDER (0 skips it).
 * Widget: WIDGET_BENCH_STREAMS (5000), WIDGET_BENCH_FANOUT (2000), WIDGET_BENCH_CLIENTS (50).
 * Inbox: INBOX_BENCH_CONVERSATIONS (100000), INBOX_BENCH_REQUESTS (200), INBOX_BENCH_REPLIES (300).
 * SMS: SMS_BENCH_RATE (200), SMS_BENCH_SECONDS (10), SMS_BENCH_BURST (1000), SMS_BENCH_SENDERS (100).
 * Email: EMAIL_BENCH_MESSAGES (1000), EMAIL_BENCH_RATE (50), EMAIL_BENCH_* (bench/email.ts).
 * Analytics: ANALYTICS_BENCH_MESSAGES (1000000 on PostgreSQL), ANALYTICS_BENCH_REQUESTS (40).
 * Test runs: TEST_RUN_BENCH_TESTS (200).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runApiBench } from './api.ts';

const only = new Set(
  (
    process.env.BENCH_ONLY ??
    'api,webhooks,knowledge,quality,chat,capacity,widget,hostile,inbox,analytics,sms,email,test-runs'
  )
    .split(',')
    .map((s) => s.trim()),
);

if (only.has('api')) {
  await runApiBench({
    durationSeconds: Number(process.env.BENCH_DURATION ?? 8),
    rounds: Number(process.env.BENCH_ROUNDS ?? 3),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  });
}

// The others run as their own processes (the webhook bench sets up its TLS trust at start).
const scripts = [
  'webhooks',
  'knowledge',
  'quality',
  'chat',
  'capacity',
  'widget',
  'hostile',
  'inbox',
  'analytics',
  'sms',
  'email',
  'test-runs',
] as const;
for (const name of scripts) {
  if (!only.has(name)) continue;
  const file = name === 'hostile' ? 'hostile-files' : name;
  const script = fileURLToPath(new URL(`./${file}.ts`, import.meta.url));
  const r = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit', env: process.env });
  if (r.status !== 0) process.exitCode = r.status ?? 1;
}
