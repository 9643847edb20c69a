import { Resolver } from 'node:dns/promises';

/**
 * The TXT records of a name (docs/sso.md "Verifying a domain"); `servers` (SSO_DNS_SERVERS,
 * `host:port`) replace the system resolver. Missing names answer an empty list.
 */
export async function txtRecords(name: string, servers: string[]): Promise<string[]> {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  try {
    const records = await resolver.resolveTxt(name);
    return records.map((chunks) => chunks.join(''));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw err;
  }
}
