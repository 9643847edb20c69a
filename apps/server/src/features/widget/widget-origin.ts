/**
 * The widget's origin allowlist (docs/widget.md "Embedding and configuration"). Entries are hostnames:
 * `example.com` matches exactly that host, `*.example.com` matches every subdomain of it (at
 * any depth) but not `example.com` itself, `*` matches any host. Scheme and port are not part of
 * the match (docs/decisions/0007-widget.md): `localhost` allows `http://localhost:5173`, and an
 * origin typed as an entry (`http://localhost:5173`) is stored as its host.
 */

/**
 * Every allowlist entry that would admit `hostname`: the host itself, `*`, and `*.parent` for
 * each proper parent. Matching is then set membership, in JS here and in SQL (array overlap)
 * where a request names no assistant (the Form B ticket preflight).
 */
export function matchingEntries(hostname: string): string[] {
  const out = [hostname, '*'];
  const labels = hostname.split('.');
  for (let i = 1; i < labels.length; i++) out.push(`*.${labels.slice(i).join('.')}`);
  return out;
}

export function hostAllowed(allowedDomains: readonly string[], hostname: string | null): boolean {
  if (!hostname || allowedDomains.length === 0) return false;
  return matchingEntries(hostname).some((entry) => allowedDomains.includes(entry));
}

export type RequestOrigin = { origin: string; hostname: string };

/**
 * The caller's origin: the `Origin` header, else the origin of `Referer` (docs/widget.md).
 * `Origin: null` (sandboxed frames, file pages) and anything unparsable count as no origin.
 */
export function requestOrigin(headers: { origin?: string; referer?: string }): RequestOrigin | null {
  const raw = headers.origin ?? headers.referer;
  if (!raw || raw === 'null' || raw.length > 2048) return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    return { origin: url.origin, hostname };
  } catch {
    return null;
  }
}
