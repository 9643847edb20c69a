import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in of an OpenAI-compatible embeddings server (`POST /v1/embeddings`, the request and
 * response shapes of the real API) with a small "model" of its own: each word maps to a concept
 * (`concepts`: synonyms share one, as a real model places "refund" and "money back" together),
 * a text's vector is its concepts hashed into `dimensions` and averaged. Words it does not know
 * (codes, names) leave no trace, as rare tokens fade in a real model's vector. Deterministic.
 */
export async function startEmbeddingsServer(concepts: Record<string, string>, dimensions = 64) {
  const embed = (text: string) => {
    const v: number[] = Array.from({ length: dimensions }, () => 0);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      const concept = concepts[word];
      if (!concept) continue;
      let h = 2166136261;
      for (let i = 0; i < concept.length; i++) h = Math.imul(h ^ concept.charCodeAt(i), 16777619);
      v[(h >>> 0) % dimensions]! += 1;
    }
    if (!v.some((x) => x !== 0)) v[0] = 1e-3; // a real model never returns a zero vector
    return v;
  };
  const requests: string[][] = [];
  // `hold()`: answers wait until the function it returns is called (a slow model, on demand).
  let gate: Promise<void> = Promise.resolve();
  let waiting = 0;
  const hold = () => {
    let release = () => {};
    gate = new Promise<void>((r) => {
      release = r;
    });
    return release;
  };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', async () => {
      waiting++;
      await gate;
      waiting--;
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(raw) as { input: string[]; model: string };
      requests.push(body.input);
      const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          object: 'list',
          data,
          model: body.model,
          usage: { prompt_tokens: 0, total_tokens: 0 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    dimensions,
    requests,
    hold,
    pending: () => waiting,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
