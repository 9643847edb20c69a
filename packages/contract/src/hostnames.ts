/**
 * Hostnames and the widget's allowlist entries as typed by a site owner (docs/widget.md "Embedding
 * and configuration"): the one parser, used by the request schemas here and by the server's
 * origin check (apps/server/src/features/widget/widget-origin.ts).
 */

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The URL parser's host form of `input` (lowercase, punycode), or '' when it is not a host: what
 * Node's `url.domainToASCII` does (it sets the host of a placeholder URL), written with the
 * platform's URL so the dashboard's checks run the same code.
 */
function toAscii(input: string): string {
  const url = new URL('ws://x');
  url.hostname = input;
  return url.hostname === 'x' && input !== 'x' ? '' : url.hostname;
}

/** A hostname in the form the URL parser gives it (lowercase, punycode), or null if not one. */
export function normalizeHostname(input: string): string | null {
  const trimmed = input.trim().toLowerCase().replace(/\.$/, '');
  // The URL parser would quietly drop a path or port: anything URL-like is not a hostname.
  if (trimmed === '' || trimmed.length > 253 || /[/\\:?#@%\s[\]]/.test(trimmed)) return null;
  const ascii = toAscii(trimmed);
  if (!ascii || ascii.length > 253) return null;
  return ascii.split('.').every((label) => LABEL.test(label)) ? ascii : null;
}

/**
 * The host part of what a site owner pastes: an origin or URL (`http://127.0.0.1:3701`,
 * `https://shop.example.com/help?x`) or `host:port` keeps only its host, since scheme and port are
 * not part of the match (above). Anything else is returned as typed, for the checks below.
 */
function hostPart(value: string): string {
  let rest = value.replace(/^https?:\/\//, '');
  if (rest === value && /^[a-z][a-z0-9+.-]*:\/\//.test(value)) return value; // ftp://... stays refused
  rest = rest.replace(/[/?#].*$/s, '');
  return rest.replace(/:\d{1,5}$/, '');
}

/**
 * An allowlist entry as stored (`*`, `*.host` or `host`), or null when it is none of these. An
 * origin, URL or `host:port` counts as its host (hostPart).
 */
export function normalizeDomainEntry(input: string): string | null {
  const value = hostPart(input.trim().toLowerCase());
  if (value === '*') return '*';
  if (value.startsWith('*.')) {
    const host = normalizeHostname(value.slice(2));
    return host ? `*.${host}` : null;
  }
  return normalizeHostname(value);
}
