import { BlockList, isIP } from 'node:net';

/**
 * The SSRF address policy (docs/webhooks.md "Addresses Parley will not call"): every request Parley makes on a
 * customer's behalf (webhooks, website and sitemap crawls, spreadsheet and store sources) may only
 * reach globally reachable unicast addresses. It allows, it does not forbid:
 *
 * - IPv6: only global unicast `2000::/3`, minus the IANA special-purpose ranges inside it. An
 *   address that embeds an IPv4 one (mapped, translated, compatible, NAT64, 6to4, Teredo) is
 *   judged by that IPv4 address, since that is where a connection would go.
 * - IPv4: anything but the IANA special-purpose ranges, multicast and the reserved block.
 */
const blocked4 = new BlockList();
/** IANA IPv4 special-purpose registry, plus multicast (224/4) and reserved (240/4). */
export const SPECIAL_IPV4: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, '"this network"'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation (TEST-NET-1)'],
  ['192.31.196.0', 24, 'AS112-v4'],
  ['192.52.193.0', 24, 'AMT'],
  ['192.88.99.0', 24, 'deprecated 6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['192.175.48.0', 24, 'direct delegation AS112'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation (TEST-NET-2)'],
  ['203.0.113.0', 24, 'documentation (TEST-NET-3)'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved, limited broadcast'],
];
for (const [net, prefix] of SPECIAL_IPV4) blocked4.addSubnet(net, prefix, 'ipv4');

/** IANA IPv6 special-purpose ranges inside 2000::/3 (everything outside it is refused anyway). */
export const SPECIAL_IPV6_GLOBAL: ReadonlyArray<readonly [string, number, string]> = [
  ['2001::', 23, 'IETF protocol assignments (Teredo is judged by its IPv4 addresses)'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4 (judged by its IPv4 address)'],
  ['2620:4f:8000::', 48, 'direct delegation AS112'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'segment routing (SRv6) SIDs'],
];

const MASK_32 = 0xffff_ffffn;

/** An IPv6 literal as a 128-bit number (WHATWG URL parsing normalises the text first). */
function ipv6Value(address: string): bigint | undefined {
  let host: string;
  try {
    host = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [head = '', tail] = host.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  if (groups.length !== 8) return undefined;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
}

function inPrefix(value: bigint, net: string, prefix: number): boolean {
  const base = ipv6Value(net);
  if (base === undefined) return false;
  const shift = BigInt(128 - prefix);
  return value >> shift === base >> shift;
}

const ipv4Text = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => Number((n >> s) & 0xffn)).join('.');

/**
 * The IPv4 addresses an IPv6 address carries, where a connection to it ends at IPv4: mapped
 * (::ffff:0:0/96), translated (::ffff:0:0:0/96), compatible (::/96), NAT64 (64:ff9b::/96),
 * 6to4 (2002::/16) and Teredo (2001::/32: the server's, and the client's, stored inverted).
 * undefined when it embeds none.
 */
export function embeddedIPv4(value: bigint): string[] | undefined {
  const low = value & MASK_32;
  if (value >> 32n === 0xffffn) return [ipv4Text(low)]; // mapped
  if (value >> 32n === 0xffff0000n) return [ipv4Text(low)]; // translated
  if (value >> 32n === 0n && low > 1n) return [ipv4Text(low)]; // compatible (not :: or ::1)
  if (inPrefix(value, '64:ff9b::', 96)) return [ipv4Text(low)]; // NAT64
  if (inPrefix(value, '2002::', 16)) return [ipv4Text((value >> 80n) & MASK_32)]; // 6to4
  if (inPrefix(value, '2001::', 32)) return [ipv4Text((value >> 64n) & MASK_32), ipv4Text(~low & MASK_32)];
  return undefined;
}

function allowed6(value: bigint): boolean {
  const carried = embeddedIPv4(value);
  if (carried) return carried.every((v4) => !blocked4.check(v4, 'ipv4'));
  if (value >> 125n !== 1n) return false; // outside 2000::/3
  return !SPECIAL_IPV6_GLOBAL.some(([net, prefix]) => inPrefix(value, net, prefix));
}

/** True when `address` (an IP literal) is one we must never connect to on a customer's behalf. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 4) return blocked4.check(bare, 'ipv4');
  if (family === 6) {
    // Zone ids (fe80::1%eth0) only appear on link-local addresses.
    if (bare.includes('%')) return true;
    const value = ipv6Value(bare);
    return value === undefined || !allowed6(value);
  }
  return true; // not an IP at all: refuse rather than guess
}

/**
 * Names that always mean this machine. WHATWG URL parsing has already turned decimal, octal and
 * hex IPv4 forms (http://2130706433, http://0x7f.1, http://0177.0.0.1) into dotted quads.
 */
export function isLocalHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '';
}

/** The host of a parsed URL as an IP literal, or undefined for a DNS name. */
export function ipLiteralOf(url: URL): string | undefined {
  const h = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(h) ? h : undefined;
}
