import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { ipLiteralOf, isBlockedAddress, isLocalHostname } from './address-policy.ts';

export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

export type GuardOptions = { allowPrivateNetworks: boolean };

/** Resolves every address of `hostname` (bounded in time), for the creation-time check. */
function resolveAll(hostname: string, timeoutMs: number): Promise<LookupAddress[] | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      clearTimeout(timer);
      resolve(err ? undefined : addresses);
    });
  });
}

/**
 * Creation-time check (docs/webhooks.md "Addresses Parley will not call"): the URL's host must not be, or
 * resolve to, a refused address. A name that does not resolve now is accepted: the connect-time lookup below
 * decides on every attempt, which also defeats DNS rebinding.
 */
export async function checkOutboundUrl(raw: string, opts: GuardOptions): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Must be a valid URL';
  }
  if (url.protocol !== 'https:') return 'Must be an https:// URL';
  if (url.username || url.password) return 'Must not contain credentials';
  if (opts.allowPrivateNetworks) return null;
  if (isLocalHostname(url.hostname)) return 'Must not point to a private or reserved address';
  const literal = ipLiteralOf(url);
  if (literal) return isBlockedAddress(literal) ? 'Must not point to a private or reserved address' : null;
  const addresses = await resolveAll(url.hostname, 2000);
  if (addresses?.some((a) => isBlockedAddress(a.address))) {
    return 'Must not resolve to a private or reserved address';
  }
  return null;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s).Agent: the connect-time check. Every resolved address must pass, so a
 * name answering with one public and one private address is refused as a whole.
 */
export function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true, verbatim: true } as { all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((a) => isBlockedAddress(a.address));
    if (refused || addresses.length === 0 || isLocalHostname(hostname)) {
      const e = new OutboundRefused(`Refused to connect to ${hostname}: private or reserved address`);
      return callback(Object.assign(e, { code: 'EPARLEYREFUSED' }), []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

/** The connect-time check for a URL whose host is an IP literal (no lookup happens for those). */
export function assertLiteralAllowed(url: URL, opts: GuardOptions): void {
  if (opts.allowPrivateNetworks) return;
  if (isLocalHostname(url.hostname)) throw new OutboundRefused('Refused: local host name');
  const literal = ipLiteralOf(url);
  if (literal && isBlockedAddress(literal)) throw new OutboundRefused(`Refused to connect to ${literal}`);
}
