import { parentPort } from 'node:worker_threads';
import { apiSample } from './email-support.ts';

/**
 * bench/email.ts's API reads, in a thread of their own: a read's latency is timed on an event loop
 * that does nothing else, not on the one that also posts the mail, runs the SMTP server that parses
 * every reply and the DNS server (bench/email-support.ts), which would add their time to the reads'.
 */
type Ask = {
  base: string;
  seed: Parameters<typeof apiSample>[1];
  connections: number;
  seconds: number;
  rate: number;
};

parentPort?.on('message', (ask: Ask) => {
  void apiSample(ask.base, ask.seed, ask.connections, ask.seconds, ask.rate).then((s) =>
    parentPort?.postMessage(s),
  );
});
