import { describe, expect, it } from 'vitest';
import {
  isBlockedAddress,
  SPECIAL_IPV4,
  SPECIAL_IPV6_GLOBAL,
} from '../../src/lib/outbound/address-policy.ts';

/**
 * The outbound address policy over every IANA special-purpose range of both families (first and
 * last address of each), the IPv6 space outside global unicast, and every way an IPv6 address
 * carries an IPv4 one.
 */
const v4Last = (net: string, prefix: number) => {
  const n = net.split('.').reduce((a, o) => a * 256 + Number(o), 0) + 2 ** (32 - prefix) - 1;
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
};

describe('IPv4', () => {
  it.each(SPECIAL_IPV4.map(([net, prefix, what]) => [`${net}/${prefix}`, what, net, v4Last(net, prefix)]))(
    'refuses %s (%s), first and last address',
    (_range, _what, first, last) => {
      expect(isBlockedAddress(first)).toBe(true);
      expect(isBlockedAddress(last)).toBe(true);
    },
  );

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '100.63.255.255',
    '100.128.0.0',
    '172.32.0.1',
    '192.0.3.1',
  ])('allows the public address %s', (address) => expect(isBlockedAddress(address)).toBe(false));
});

describe('IPv6', () => {
  const lastOf: Record<string, string> = {
    '2001::': '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff',
    '2001:db8::': '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff',
    '2002::': '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '2620:4f:8000::': '2620:4f:8000:ffff:ffff:ffff:ffff:ffff',
    '3fff::': '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff',
    '5f00::': '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  };
  it.each(SPECIAL_IPV6_GLOBAL)('refuses %s/%s inside global unicast (%s), first and last address', (net) => {
    expect(lastOf[net], `a last address for ${net} in this table`).toBeDefined();
    expect(isBlockedAddress(net)).toBe(true);
    expect(isBlockedAddress(lastOf[net] ?? '')).toBe(true);
  });

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['100::1', 'discard-only'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2001:2::1', 'benchmarking (inside 2001::/23)'],
    ['2001:10::1', 'ORCHID (inside 2001::/23)'],
    ['fc00::1', 'unique local'],
    ['fdff:ffff::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['4000::1', 'unassigned, outside 2000::/3'],
    ['1fff:ffff::1', 'just below 2000::/3'],
    ['e000::1', 'unassigned'],
  ])('refuses %s (%s)', (address) => expect(isBlockedAddress(address)).toBe(true));

  it.each(['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '2000::1', '3ffe::1', '3fff:1000::1'])(
    'allows the global unicast address %s',
    (address) => expect(isBlockedAddress(address)).toBe(false),
  );
});

describe('IPv6 carrying IPv4 is judged by the IPv4 address', () => {
  const cases: Array<[string, string, string[]]> = [
    ['mapped', '::ffff:127.0.0.1', ['127.0.0.1']],
    ['mapped, hex', '::ffff:7f00:1', ['127.0.0.1']],
    ['translated', '::ffff:0:127.0.0.1', ['127.0.0.1']],
    ['translated, hex', '::ffff:0:a9fe:a9fe', ['169.254.169.254']],
    ['compatible', '::10.0.0.1', ['10.0.0.1']],
    ['NAT64', '64:ff9b::192.168.1.1', ['192.168.1.1']],
    ['6to4', '2002:7f00:1::', ['127.0.0.1']],
    ['Teredo (server 10.0.0.1, client 8.8.8.8 inverted)', '2001:0:a00:1::f7f7:f7f7', ['10.0.0.1', '8.8.8.8']],
  ];
  it.each(cases)('%s: %s carries %j and is refused', (_kind, address, carried) => {
    expect(isBlockedAddress(address)).toBe(true);
    expect(isBlockedAddress(`[${address}]`)).toBe(true);
    expect(carried.some((v4) => isBlockedAddress(v4))).toBe(true);
  });

  it.each([
    ['::ffff:8.8.8.8'],
    ['::ffff:0:8.8.8.8'],
    ['64:ff9b::8.8.8.8'],
    ['2002:808:808::1'],
    ['2001:0:808:808::f7f7:f7f7'],
  ])('allows %s, which carries a public IPv4 address', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it('refuses what is not an IP literal', () => {
    expect(isBlockedAddress('example.com')).toBe(true);
    expect(isBlockedAddress('')).toBe(true);
  });
});
