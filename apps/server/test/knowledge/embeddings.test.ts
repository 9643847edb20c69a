import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEmbedder, embedOffline } from '../../src/providers/embeddings/offline.ts';
import { createOpenAiCompatibleEmbedder } from '../../src/providers/embeddings/openai-compatible.ts';
import { createSemanticEmbedder } from '../../src/providers/embeddings/semantic.ts';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

describe('offline embedder', () => {
  it('is deterministic, unit length and of the stated dimensions', async () => {
    const e = createOfflineEmbedder();
    const [a, b] = await e.embed(['Refunds take five days', 'Refunds take five days']);
    expect(a).toHaveLength(384);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(cosine(a!, a!)).toBeCloseTo(1, 5);
  });

  it('puts texts that share words closer than unrelated ones', () => {
    const q = embedOffline('how long do refunds take');
    const related = embedOffline('Refunds are processed within five business days.');
    const unrelated = embedOffline('Our office dog is called Biscuit.');
    expect(cosine(q, related)).toBeGreaterThan(cosine(q, unrelated) + 0.1);
  });

  it('gives way to other work while it embeds many texts, and answers one text at once', async () => {
    const texts = Array.from(
      { length: 3000 },
      (_, i) => `Chunk ${i}: refunds are processed within five business days.`,
    );
    for (const e of [createOfflineEmbedder(), createSemanticEmbedder()]) {
      let done = false;
      const all = e.embed(texts).then((v) => {
        done = true;
        return v;
      });
      // a request arriving meanwhile is served before the last text is embedded
      await new Promise((r) => setImmediate(r));
      expect(done).toBe(false);
      const vectors = await all;
      expect(vectors).toHaveLength(3000);
      expect(Array.from(vectors[2999]!)).toEqual(Array.from((await e.embed([texts[2999]!]))[0]!));
      // aborted between slices: the rest is not embedded
      const controller = new AbortController();
      const aborted = e.embed(texts, controller.signal);
      controller.abort();
      await expect(aborted).rejects.toThrow();
    }
  });

  it('survives empty, unicode and huge input', () => {
    expect(Array.from(embedOffline('')).every((x) => x === 0)).toBe(true);
    expect(cosine(embedOffline('配送 🚚 délais'), embedOffline('配送 délais'))).toBeGreaterThan(0.5);
    expect(embedOffline('word '.repeat(100_000))).toHaveLength(384);
  });
});

describe('OpenAI-compatible embedder against a local stand-in', () => {
  let url = '';
  const seen: Array<{ auth?: string; body: { model: string; input: string[]; dimensions: number } }> = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const body = JSON.parse(raw);
      seen.push({ auth: req.headers.authorization, body });
      if (body.input.includes('fail')) {
        res.writeHead(500).end('{"error":{"message":"boom"}}');
        return;
      }
      // reversed order, un-normalised vectors: the client must sort and normalise
      const data = body.input
        .map((_: string, index: number) => ({
          index,
          embedding: Array.from(
            { length: body.model === 'short' ? body.dimensions - 1 : body.dimensions },
            () => index + 1,
          ),
        }))
        .reverse();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('batches, authenticates, orders by index and normalises', async () => {
    const e = createOpenAiCompatibleEmbedder({
      baseUrl: url,
      apiKey: 'sk-test',
      model: 'm',
      dimensions: 4,
      batchSize: 2,
    });
    const out = await e.embed(['a', 'b', 'c']);
    expect(out).toHaveLength(3);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({
      auth: 'Bearer sk-test',
      body: { model: 'm', input: ['a', 'b'], dimensions: 4 },
    });
    for (const v of out) expect(cosine(v, v)).toBeCloseTo(1, 5);
  });

  it('reports provider errors and dimension mismatches', async () => {
    const e = createOpenAiCompatibleEmbedder({ baseUrl: url, model: 'm', dimensions: 4 });
    await expect(e.embed(['fail'])).rejects.toThrow(/500/);
    const short = createOpenAiCompatibleEmbedder({ baseUrl: url, model: 'short', dimensions: 4 });
    await expect(short.embed(['a'])).rejects.toThrow(/3 dimensions; expected 4/);
  });
});
