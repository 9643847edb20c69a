/**
 * `npm run bench`: every benchmark, each reporting against a floor measured in the same run.
 * BENCH_DURATION (seconds per measurement, default 8), BENCH_ROUNDS (default 3) and
 * BENCH_CONNECTIONS (default 50).
 */
import { runApiBench } from './api.ts';

await runApiBench({
  durationSeconds: Number(process.env.BENCH_DURATION ?? 8),
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
});
