import { WIDGET_CATALOGS } from '@parley/contract/widget-strings/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import { createWorld, type World } from '../support/world.ts';
import { fromSite, initWidget, NO_RATE_LIMIT, widgetAssistant } from './helpers.ts';

/**
 * docs/languages.md "Widget": init's config (and Form B's `GET /config`) in the visitor's
 * language: the first supported match in `languages` (navigator.languages), then in
 * `Accept-Language`, else the workspace's `defaultLanguage`; with `direction` and every string.
 */
let t: TestApp;
let w: World;
let asst: string;

beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  asst = await widgetAssistant(t, w.owner, w.ws);
});
afterAll(() => t.close());

const init = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  fromSite(t, {
    method: 'POST',
    url: `/api/widget/${asst}/init`,
    payload: { sessionId: null, ...payload },
    headers,
  });
const configOf = async (payload: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const res = await init(payload, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.config as { language: string; direction: string; strings: Record<string, string> };
};
const formB = (query: string, headers: Record<string, string> = {}) =>
  fromSite(t, { method: 'GET', url: `/api/widget/${asst}/config${query}`, headers });
const setDefault = async (defaultLanguage: string) => {
  const res = await t.request({
    method: 'PATCH',
    url: `/api/workspaces/${w.ws}`,
    headers: w.owner.headers,
    payload: { defaultLanguage },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
};

describe('POST /api/widget/{id}/init: the language', () => {
  it('takes the first supported of `languages`, with its direction and its whole catalog', async () => {
    const es = await configOf({ languages: ['es-MX', 'en-US'] });
    expect(es).toMatchObject({ language: 'es', direction: 'ltr' });
    expect(es.strings).toEqual(WIDGET_CATALOGS.es);
    const ar = await configOf({ languages: ['ko', 'xx-YY', 'ar-EG', 'fr'] });
    expect(ar).toMatchObject({ language: 'ar', direction: 'rtl' });
    expect(ar.strings).toEqual(WIDGET_CATALOGS.ar);
    expect((await configOf({ languages: ['zh-CN'] })).language).toBe('zh-Hans');
    expect((await configOf({ languages: ['zh-Hans-SG'] })).language).toBe('zh-Hans');
    expect((await configOf({ languages: ['pt_BR'] })).language).toBe('pt');
    expect((await configOf({ languages: ['JA'] })).language).toBe('ja');
  });

  it('`languages` comes before Accept-Language; Accept-Language before the default', async () => {
    expect((await configOf({ languages: ['it'] }, { 'accept-language': 'nl' })).language).toBe('it');
    // None of `languages` is supported (zh-Hant is not among them): the header decides.
    const header = await configOf({ languages: ['ko', 'zh-TW'] }, { 'accept-language': 'pl-PL,pl;q=0.9' });
    expect(header.language).toBe('pl');
    const weighted = await configOf({}, { 'accept-language': 'en;q=0.1, de-CH;q=0.9, *;q=0.5' });
    expect(weighted.language).toBe('de');
    expect((await configOf({}, { 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8' })).language).toBe('fr');
    expect((await configOf({}, { 'accept-language': 'tr;q=0, ja' })).language).toBe('ja');
  });

  it('falls back to the workspace’s default language (en until changed)', async () => {
    const none = await configOf({});
    expect(none).toMatchObject({ language: 'en', direction: 'ltr' });
    expect(none.strings).toEqual(WIDGET_CATALOGS.en);
    expect((await configOf({ languages: [] }, { 'accept-language': 'ko, he' })).language).toBe('en');
    await setDefault('nl');
    try {
      expect((await configOf({ languages: ['ko'] }, { 'accept-language': 'sv' })).language).toBe('nl');
      expect((await configOf({ languages: ['es'] })).language).toBe('es');
      await setDefault('ar');
      expect(await configOf({})).toMatchObject({ language: 'ar', direction: 'rtl' });
    } finally {
      await setDefault('en');
    }
  });

  it('a resumed session answers in the languages it sends now', async () => {
    const s = await initWidget(t, asst, { languages: ['de'] });
    expect(s.data.config.language).toBe('de');
    const resumed = await fromSite(t, {
      method: 'POST',
      url: `/api/widget/${asst}/init`,
      token: s.token,
      payload: { sessionId: s.sessionId, languages: ['tr'] },
    });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json().data).toMatchObject({ sessionId: s.sessionId, config: { language: 'tr' } });
  });
});

describe('GET /api/widget/{id}/config (Form B): the language', () => {
  it('takes `languages` (comma-separated), then Accept-Language, then the default', async () => {
    const tr = await formB('?languages=xx,tr-TR,en');
    expect(tr.statusCode, tr.body).toBe(200);
    expect(tr.json().data).toMatchObject({ language: 'tr', direction: 'ltr', strings: WIDGET_CATALOGS.tr });
    const ar = await formB('', { 'accept-language': 'ar-SA,ar;q=0.9' });
    expect(ar.json().data).toMatchObject({ language: 'ar', direction: 'rtl' });
    expect((await formB('?languages=', { 'accept-language': 'ja' })).json().data.language).toBe('ja');
    expect((await formB('?languages=%20zh-CN%20,%20')).json().data.language).toBe('zh-Hans');
    expect((await formB('')).json().data.language).toBe('en');
  });
});

describe('the workspace’s defaultLanguage', () => {
  it('is in the workspace’s shape (single and list) and PATCH changes it', async () => {
    const one = await t.request({ method: 'GET', url: `/api/workspaces/${w.ws}`, headers: w.owner.headers });
    expect(one.json().data.defaultLanguage).toBe('en');
    const patched = await setDefault('zh-Hans');
    expect(patched.json().data).toMatchObject({ id: w.ws, defaultLanguage: 'zh-Hans' });
    const list = await t.request({ method: 'GET', url: '/api/workspaces', headers: w.owner.headers });
    expect(list.json().data.find((x: { id: string }) => x.id === w.ws).defaultLanguage).toBe('zh-Hans');
    await setDefault('en');
  });

  it('400 for a language not supported, or not a string; nothing stored', async () => {
    for (const defaultLanguage of ['xx', 'zh-Hant', 'EN', 'es-MX', '', 5, null, ['en']]) {
      await expectNothingStored(t, async () => {
        const res = await t.request({
          method: 'PATCH',
          url: `/api/workspaces/${w.ws}`,
          headers: w.owner.headers,
          payload: { defaultLanguage },
        });
        expect(res.statusCode, JSON.stringify(defaultLanguage)).toBe(400);
        expect(res.json().details).toHaveProperty('defaultLanguage');
      });
    }
  });

  it('members and guests may not change it (403)', async () => {
    for (const user of [w.member, w.guest]) {
      const res = await t.request({
        method: 'PATCH',
        url: `/api/workspaces/${w.ws}`,
        headers: user.headers,
        payload: { defaultLanguage: 'es' },
      });
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('hostile input', () => {
  it('init refuses a `languages` that is not a short list of short strings (400, nothing stored)', async () => {
    for (const languages of [
      'es',
      { 0: 'es' },
      [1, 2],
      [null],
      [''],
      ['   '],
      ['x'.repeat(36)],
      Array.from({ length: 21 }, () => 'es'),
    ]) {
      await expectNothingStored(t, async () => {
        const res = await init({ languages });
        expect(res.statusCode, JSON.stringify(languages)).toBe(400);
        expect(res.json().code).toBe('bad_request:api');
        expect(Object.keys(res.json().details).join()).toMatch(/^languages/);
      });
    }
  });

  it('odd tags are no match, never an error: unicode, scripts, private use, injection', async () => {
    const odd = [
      '😀',
      'español',
      '中文',
      'x-klingon',
      "es'; drop table workspaces;--",
      'i-default',
      '--',
      'ar\u200f',
    ];
    expect((await configOf({ languages: odd })).language).toBe('en');
    // A bidi control before a real tag makes it no tag at all: still no match, still 200.
    expect((await configOf({ languages: ['\u202eja'] })).language).toBe('en');
  });

  it('a huge or malformed Accept-Language is no match, never an error', async () => {
    const huge = Array.from({ length: 600 }, (_, i) => `x${i};q=0.${i % 10}`).join(', ');
    expect((await configOf({}, { 'accept-language': `${huge}, es` })).language).toBe('en');
    for (const header of [';;;,,,', 'q=1', 'es;q=abc', 'es;q=-1, fr', '*', '  ,  ']) {
      // An unreadable weight counts as 1 (the tag still stands), as browsers' own parsers do.
      const config = await configOf({}, { 'accept-language': header });
      expect(['en', 'es', 'fr']).toContain(config.language);
    }
  });

  it('Form B refuses a list too long, an item too long, or an unknown parameter (400)', async () => {
    for (const query of [
      `?languages=${'es,'.repeat(21)}`,
      `?languages=${'x'.repeat(36)}`,
      `?languages=${'a'.repeat(401)}`,
      '?lang=es',
      '?languages=es&languages=fr',
    ]) {
      const res = await formB(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toMatch(/^bad_request:/);
    }
  });
});
