/**
 * The one rule for a caller-supplied place to go after signing in or up (`?next=`: docs/dashboard.md
 * "Team, API keys and account", docs/decisions/0008-dashboard.md).
 * It depends on nothing but the platform's URL parser, so the dashboard imports it
 * (apps/web/src/features/auth/AuthPage.tsx) and any server redirect that ever takes such a value
 * can use the very same rule.
 *
 * `value` is resolved with `new URL(value, origin)`, as a browser resolves it, and kept only when
 * it is a path of `origin`:
 * - it starts with `/` (an absolute path, not `https:`, `javascript:` or a relative name);
 * - no control character or backslash, raw or percent-decoded: browsers drop tab, CR and LF
 *   and read `\` as `/`, so `/\t/host` and `/\host` become `//host`;
 * - the resolved origin is `origin` (this refuses `//host`, `/\t/host`, `/\host`);
 * - the resolved path, percent-decoded, does not start with `//`: `/%2F/host` stays on this origin
 *   today, but a router or proxy that decodes it once would read the protocol-relative `//host`.
 *
 * Returns the resolved path, query and fragment (what was checked is what is used), else null.
 */
export function safeNextPath(value: string | null | undefined, origin: string): string | null {
  if (!value?.startsWith('/') || UNSAFE.test(value)) return null;
  let url: URL;
  let own: string;
  try {
    url = new URL(value, origin);
    own = new URL(origin).origin;
  } catch {
    return null;
  }
  if (url.origin !== own) return null;
  const decoded = decodedFully(url.pathname);
  if (decoded === null || UNSAFE.test(decoded) || decoded.startsWith('//')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** C0 controls, DEL, C1 controls and the backslash. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\\]/;

/**
 * `path` percent-decoded until nothing changes (a double-encoded `%252F` is a `/` to a server
 * that decodes twice), or null when it is not valid percent-encoding or never settles.
 */
function decodedFully(path: string): string | null {
  let current = path;
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}
