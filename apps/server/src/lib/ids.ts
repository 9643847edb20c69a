import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulidx';

/**
 * Crypto-random bytes drawn from a pool refilled 4 KB at a time: ulidx's default asks the system
 * for one byte per character (16 calls per id, a visible share of a chat's CPU). byte / 256 maps
 * the 256 values evenly onto ulid's 32 characters.
 */
const pool = Buffer.alloc(4096);
let next = pool.length;
function randomUnit(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]! / 256;
}

const ulid = monotonicFactory(randomUnit);

/**
 * Type prefixes of every id Parley issues (docs/api.md "Requests and responses": prefixed, time-ordered,
 * random).
 */
export type IdPrefix =
  | 'usr'
  | 'ses'
  | 'pat'
  | 'ws'
  | 'inv'
  | 'key'
  | 'asst'
  | 'evt'
  | 'whk'
  | 'dlv'
  | 'whf'
  | 'ntf'
  | 'src'
  | 'chk'
  | 'prj'
  | 'conv'
  | 'msg'
  | 'ct'
  | 'tkt'
  | 'wss'
  | 'fb'
  | 'chg'
  | 'smss'
  | 'smsi'
  | 'smst'
  | 'emi'
  | 'att'
  | 'sso'
  | 'gdr'
  | 'ans'
  | 'tst'
  | 'run'
  | 'sug'
  | 'cnd'
  | 'lbl'
  | 'sla';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid().toLowerCase()}`;
}
