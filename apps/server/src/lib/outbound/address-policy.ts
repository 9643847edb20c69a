import { BlockList, isIP } from 'node:net';

/**
 * The SSRF address policy (issue 3 item 5; decisions §9): every outgoing request Parley makes on
 * a customer's behalf (webhooks now, website crawling later) may only reach public unicast
 * addresses. Ranges: IANA special-purpose registries for IPv4 and IPv6.
 */
// Two lists: Node's BlockList matches IPv4 addresses against IPv4-mapped IPv6 rules, and
// ::ffff:0:0/96 below would otherwise refuse every IPv4 address.
const blocked4 = new BlockList();
const blocked6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked4.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible (deprecated)
  ['::ffff:0:0', 96], // IPv4-mapped
  ['64:ff9b::', 96], // NAT64 (reaches IPv4 space)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds IPv4)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked6.addSubnet(net, prefix, 'ipv6');
}

/** True when `address` (an IP literal) is one we must never connect to on a customer's behalf. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 4) return blocked4.check(bare, 'ipv4');
  if (family === 6) {
    // Zone ids (fe80::1%eth0) only appear on link-local addresses.
    if (bare.includes('%')) return true;
    return blocked6.check(bare, 'ipv6');
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
