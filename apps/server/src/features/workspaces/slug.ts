import { randomBytes } from 'node:crypto';
import { SLUG_MAX } from '@parley/contract/slug';

/** Room left for a collision suffix such as `-12` or `-k3f9x2`. */
const BASE_MAX = SLUG_MAX - 8;

const randomPart = (n: number) =>
  Array.from(randomBytes(n), (b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');

/**
 * A slug from a display name: accents folded to ASCII (NFKD, marks dropped), everything else
 * that is not [a-z0-9] becomes one dash. A name with nothing ASCII left (e.g. "日本語") falls
 * back to `ws-<random>`, so every name yields a valid slug.
 */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .replace(/ø/g, 'o')
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, BASE_MAX)
    .replace(/^-+|-+$/g, '');
  return base || `ws-${randomPart(8)}`;
}

/** Candidates after the base is taken: numbered first (`acme-2`), then random (a lost race). */
export function withSuffix(base: string, n: number): string {
  return `${base}-${n}`;
}

export function withRandomSuffix(base: string): string {
  return `${base}-${randomPart(6)}`;
}
