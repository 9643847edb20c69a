import { monotonicFactory } from 'ulidx';

const ulid = monotonicFactory();

/** Type prefixes of every id Parley issues (decisions §2: prefixed, time-ordered, random). */
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
  | 'fb';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid().toLowerCase()}`;
}
