import { normalizeDomainEntry } from '@parley/contract/hostnames';
import { describe, expect, it } from 'vitest';
import { hostAllowed, matchingEntries, requestOrigin } from '../../src/features/widget/widget-origin.ts';

/**
 * The allowlist rules of docs/widget.md "Embedding and configuration", as pure functions (the HTTP matrix is
 * in access.test.ts).
 */
describe('allowlist entries and matching', () => {
  it('normalises entries: lowercase, punycode, trailing dot, an origin or URL to its host; refuses odd wildcards', () => {
    expect(normalizeDomainEntry(' Shop.Example.COM. ')).toBe('shop.example.com');
    // An origin, a URL or host:port keeps its host: the match ignores scheme and port.
    expect(normalizeDomainEntry('http://127.0.0.1:3701')).toBe('127.0.0.1');
    expect(normalizeDomainEntry('https://Shop.Example.com/help?q=1#top')).toBe('shop.example.com');
    expect(normalizeDomainEntry('localhost:5173')).toBe('localhost');
    expect(normalizeDomainEntry('a.com/x')).toBe('a.com');
    expect(normalizeDomainEntry('https://*.example.com')).toBe('*.example.com');
    expect(normalizeDomainEntry('*.Bücher.example')).toBe('*.xn--bcher-kva.example');
    expect(normalizeDomainEntry('*')).toBe('*');
    expect(normalizeDomainEntry('127.0.0.1')).toBe('127.0.0.1');
    for (const bad of [
      'ftp://a.com',
      'http://',
      'me@a.com',
      '*a.com',
      'a.*.com',
      '-a.com',
      '',
      '*.',
      'a..com',
    ]) {
      expect(normalizeDomainEntry(bad), bad).toBeNull();
    }
  });

  it('matches a host exactly, subdomains through *.parent (not the apex), anything through *', () => {
    expect(matchingEntries('a.b.example.com')).toEqual([
      'a.b.example.com',
      '*',
      '*.b.example.com',
      '*.example.com',
      '*.com',
    ]);
    expect(hostAllowed(['example.com'], 'example.com')).toBe(true);
    expect(hostAllowed(['example.com'], 'www.example.com')).toBe(false);
    expect(hostAllowed(['*.example.com'], 'www.example.com')).toBe(true);
    expect(hostAllowed(['*.example.com'], 'example.com')).toBe(false);
    expect(hostAllowed(['*.example.com'], 'evilexample.com')).toBe(false);
    expect(hostAllowed(['*'], 'whatever.test')).toBe(true);
    expect(hostAllowed([], 'example.com')).toBe(false);
    expect(hostAllowed(['*'], null)).toBe(false);
  });

  it('reads Origin, else Referer; null, non-http and unparsable values are no origin', () => {
    expect(requestOrigin({ origin: 'https://a.example:8443' })).toEqual({
      origin: 'https://a.example:8443',
      hostname: 'a.example',
    });
    expect(requestOrigin({ referer: 'http://b.example/path?q=1#x' })).toEqual({
      origin: 'http://b.example',
      hostname: 'b.example',
    });
    expect(requestOrigin({ origin: 'https://a.example', referer: 'https://b.example/' })?.hostname).toBe(
      'a.example',
    );
    expect(requestOrigin({ origin: 'null', referer: 'https://b.example/' })).toBeNull();
    expect(requestOrigin({ origin: 'file:///etc/passwd' })).toBeNull();
    expect(requestOrigin({ origin: 'chrome-extension://abc' })).toBeNull();
    expect(requestOrigin({})).toBeNull();
  });
});
