import { safeNextPath } from '@parley/contract/next-path';
import { describe, expect, it } from 'vitest';

/**
 * The one rule for `?next=` (src/lib/next-path.ts). `value` is what the page reads from its query
 * string, i.e. already decoded once: `?next=/%09/evil.example/x` arrives as `/\t/evil.example/x`.
 * apps/server/test/browser/dashboard-next.browser.test.ts signs in and up in Chromium with them.
 */

const ORIGIN = 'http://127.0.0.1:3000';

describe('safeNextPath', () => {
  it.each([
    ['/\t/evil.example/x', 'tab: browsers drop it, leaving //evil.example'],
    ['/\r/evil.example', 'CR'],
    ['/\n/evil.example', 'LF'],
    ['/\\/evil.example', 'backslash (decoded %5C)'],
    ['/\\evil.example', 'backslash read as a slash'],
    ['//evil.example', 'protocol-relative'],
    ['//evil.example/inbox', 'protocol-relative with a path'],
    ['///evil.example', 'three slashes'],
    ['/%2F/evil.example', 'encoded slash'],
    ['/%2f%2fevil.example', 'encoded slashes, lower case'],
    ['/%252F/evil.example', 'double-encoded slash'],
    ['/%5C/evil.example', 'encoded backslash'],
    ['/%09/evil.example', 'encoded tab'],
    ['//evil.example', 'decoded %2F%2Fevil.example'],
    ['%2F%2Fevil.example', 'not a path: no leading slash'],
    ['https://evil.example', 'another origin'],
    ['http://127.0.0.1:3001/inbox', 'another port'],
    ['javascript:alert(1)', 'a script'],
    ['data:text/html,hi', 'a data URL'],
    ['inbox', 'a relative name'],
    ['/inbox/%E0%A4%A', 'malformed percent-encoding'],
    ['/a\u0085b', 'a C1 control'],
    ['', 'empty'],
  ])('refuses %j (%s)', (value) => {
    expect(safeNextPath(value, ORIGIN)).toBeNull();
  });

  it('refuses a missing value', () => {
    expect(safeNextPath(null, ORIGIN)).toBeNull();
    expect(safeNextPath(undefined, ORIGIN)).toBeNull();
  });

  it.each([
    ['/inbox?x=1#y', '/inbox?x=1#y'],
    ['/invite/inv_abc123', '/invite/inv_abc123'],
    ['/w/ws_1/inbox?status=open&q=a%2Fb', '/w/ws_1/inbox?status=open&q=a%2Fb'],
    ['/w/ws_1/../../account', '/account'],
    ['/', '/'],
    ['/search?q=two words', '/search?q=two%20words'],
  ])('keeps the path %j as %j', (value, kept) => {
    expect(safeNextPath(value, ORIGIN)).toBe(kept);
  });

  it('refuses a path that resolves to //host (dot segments), which assign() would leave for', () => {
    for (const value of ['/x/..//evil.example', '/.//evil.example', '/x/%2E%2E//evil.example']) {
      expect(safeNextPath(value, ORIGIN)).toBeNull();
    }
  });
});
