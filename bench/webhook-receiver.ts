/**
 * The benchmark's receiver in its own process (bench/webhooks.ts forks it), so the Parley
 * process under test has its cores to itself as far as the machine allows. Answers 200 to
 * every POST; reports how many arrived and when each (event, webhook) first arrived.
 */
import { Receiver } from '../apps/server/test/support/receiver.ts';

const rx = await new Receiver().start();
const first = new Map<string, number>();
let count = 0;
rx.on = rx.on.bind(rx);
const origPush = rx.received.push.bind(rx.received);
rx.received.push = (...hits) => {
  for (const hit of hits) {
    count++;
    const key = `${JSON.parse(hit.body).id}${hit.path}`;
    if (!first.has(key)) first.set(key, hit.at);
  }
  return origPush(...hits.map((h) => ({ ...h, body: '' }))) && 0;
};
process.send?.({ type: 'ready', port: rx.port });
process.on('message', (msg: { type: string }) => {
  if (msg.type === 'count') process.send?.({ type: 'count', count });
  if (msg.type === 'arrivals') process.send?.({ type: 'arrivals', arrivals: [...first.entries()] });
  if (msg.type === 'stop') void rx.close().then(() => process.exit(0));
});
