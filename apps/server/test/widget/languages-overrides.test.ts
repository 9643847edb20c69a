import { WIDGET_CATALOGS, WIDGET_STRING_KEYS } from '@parley/contract/widget-strings/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import { createWorld, ownerOf, type World } from '../support/world.ts';
import { configureWidget, fromSite, NO_RATE_LIMIT, widgetAssistant } from './helpers.ts';

/**
 * docs/languages.md "Widget": the widget configuration's `strings` overrides
 * (`{[language]: {[key]: text}}`, owners and admins), validated against the supported languages
 * and the documented key list, and merged into init's strings.
 */
let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
});
afterAll(() => t.close());

const patch = (id: string, payload: unknown, headers = w.owner.headers) =>
  t.request({ method: 'PATCH', url: `/api/assistants/${id}/widget`, headers, payload: payload as object });
const stringsAt = async (id: string, languages: string[]) => {
  const res = await fromSite(t, {
    method: 'POST',
    url: `/api/widget/${id}/init`,
    payload: { sessionId: null, languages },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.config.strings as Record<string, string>;
};

describe('strings overrides', () => {
  it('are saved, shown in the settings and merged into init in their language only', async () => {
    const id = await widgetAssistant(t, w.owner, w.ws);
    const strings = {
      es: { placeholder: 'Escríbenos aquí…', openChat: 'Habla con {name}' },
      en: { chatEnded: 'All done. Talk soon!' },
      ar: { placeholder: 'اكتب سؤالك هنا 🙂' },
    };
    const saved = await configureWidget(t, w.admin, id, { strings });
    expect(saved.strings).toEqual(strings);
    const got = await t.request({
      method: 'GET',
      url: `/api/assistants/${id}/widget`,
      headers: w.owner.headers,
    });
    expect(got.json().data.strings).toEqual(strings);

    expect(await stringsAt(id, ['es'])).toEqual({ ...WIDGET_CATALOGS.es, ...strings.es });
    expect(await stringsAt(id, ['ar'])).toEqual({ ...WIDGET_CATALOGS.ar, ...strings.ar });
    expect(await stringsAt(id, ['en'])).toEqual({ ...WIDGET_CATALOGS.en, ...strings.en });
    expect(await stringsAt(id, ['fr'])).toEqual(WIDGET_CATALOGS.fr);
    const b = await fromSite(t, { method: 'GET', url: `/api/widget/${id}/config?languages=es` });
    expect(b.json().data.strings.placeholder).toBe('Escríbenos aquí…');
  });

  it('PATCH replaces them as a whole; other fields leave them alone; {} clears them', async () => {
    const id = await widgetAssistant(t, w.owner, w.ws, { strings: { de: { endChat: 'Tschüss' } } });
    await configureWidget(t, w.owner, id, { primaryColor: '#123456' });
    expect((await configureWidget(t, w.owner, id, {})).strings).toEqual({ de: { endChat: 'Tschüss' } });
    const replaced = await configureWidget(t, w.owner, id, { strings: { it: { retry: 'Ancora' }, pl: {} } });
    // A language with no texts left is no override at all.
    expect(replaced.strings).toEqual({ it: { retry: 'Ancora' } });
    expect((await stringsAt(id, ['de'])).endChat).toBe(WIDGET_CATALOGS.de.endChat);
    expect((await configureWidget(t, w.owner, id, { strings: {} })).strings).toEqual({});
    expect(await stringsAt(id, ['it'])).toEqual(WIDGET_CATALOGS.it);
  });

  it('texts are trimmed; every key of every language fits at the longest length', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const trimmed = await configureWidget(t, w.owner, id, { strings: { ja: { retry: '  もう一度  ' } } });
    expect(trimmed.strings.ja.retry).toBe('もう一度');
    const all = Object.fromEntries(
      Object.keys(WIDGET_CATALOGS).map((lang) => [
        lang,
        Object.fromEntries(WIDGET_STRING_KEYS.map((key) => [key, 'é'.repeat(500)])),
      ]),
    );
    const res = await patch(id, { strings: all });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(Object.keys(res.json().data.strings)).toHaveLength(12);
  });
});

describe('refused overrides (400, nothing stored)', () => {
  let id: string;
  beforeAll(async () => {
    id = await widgetAssistant(t, w.owner, w.ws, { strings: { es: { retry: 'Otra vez' } } });
  });

  const refused = async (strings: unknown, field: string | RegExp) => {
    await expectNothingStored(t, async () => {
      const res = await patch(id, { strings });
      expect(res.statusCode, JSON.stringify(strings).slice(0, 200)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
      const keys = Object.keys(res.json().details);
      if (typeof field === 'string') expect(keys).toContain(field);
      else
        expect(
          keys.some((k) => field.test(k)),
          keys.join(),
        ).toBe(true);
    });
  };

  it('a language not supported', async () => {
    await refused({ xx: { retry: 'x' } }, 'strings.xx');
    await refused({ 'zh-Hant': { retry: '再試' } }, 'strings.zh-Hant');
    await refused({ ES: { retry: 'x' } }, 'strings.ES');
    await refused({ 'es-MX': { retry: 'x' } }, 'strings.es-MX');
  });

  it('a key not in the documented list', async () => {
    await refused({ es: { nope: 'x' } }, 'strings.es.nope');
    await refused({ es: { Retry: 'x' } }, 'strings.es.Retry');
    await refused({ es: { constructor: 'x' } }, 'strings.es.constructor');
    await refused({ es: { ['k'.repeat(41)]: 'x' } }, /^strings\.es/);
  });

  it('a placeholder the key does not have', async () => {
    await refused({ fr: { retry: 'Encore {name}' } }, 'strings.fr.retry');
    await refused({ fr: { openChat: 'Parler à {assistant}' } }, 'strings.fr.openChat');
  });

  it('wrong types, and empty or too long texts', async () => {
    await refused([], 'strings');
    await refused('es', 'strings');
    await refused(null, 'strings');
    await refused({ es: 'hola' }, 'strings.es');
    await refused({ es: [] }, 'strings.es');
    await refused({ es: { retry: 5 } }, 'strings.es.retry');
    await refused({ es: { retry: null } }, 'strings.es.retry');
    await refused({ es: { retry: '' } }, 'strings.es.retry');
    await refused({ es: { retry: '   ' } }, 'strings.es.retry');
    await refused({ es: { retry: 'x'.repeat(501) } }, 'strings.es.retry');
    await refused({ es: { retry: { text: 'x' } } }, 'strings.es.retry');
  });

  it('the saved overrides are untouched by every refusal', async () => {
    const got = await t.request({
      method: 'GET',
      url: `/api/assistants/${id}/widget`,
      headers: w.owner.headers,
    });
    expect(got.json().data.strings).toEqual({ es: { retry: 'Otra vez' } });
  });

  it('members and guests may not set them (403)', async () => {
    for (const user of [w.member, w.guest]) {
      const res = await patch(id, { strings: { es: { retry: 'x' } } }, user.headers);
      expect(res.statusCode).toBe(403);
    }
  });
});

securitySuite(() => t, {
  name: 'PATCH /api/assistants/:id/widget (strings)',
  auth: 'session',
  minRole: 'admin',
  prepare: async (app, world, ws) => ({ assistantId: await createAssistant(app, ownerOf(world, ws), ws) }),
  request: (_ws, x) => ({
    method: 'PATCH',
    url: `/api/assistants/${x.assistantId}/widget`,
    payload: { strings: { es: { retry: 'Reintentar ya' } } },
  }),
});
