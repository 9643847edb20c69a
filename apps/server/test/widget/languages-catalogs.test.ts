import { existsSync, readFileSync } from 'node:fs';
import { LANGUAGES } from '@parley/contract/languages';
import { placeholdersOf, WIDGET_CATALOGS, WIDGET_STRING_KEYS } from '@parley/contract/widget-strings/index';
import { describe, expect, it } from 'vitest';

/**
 * The widget's catalogs (docs/languages.md "Widget"): one per supported language, each complete,
 * each in its own language (no English left behind), with the placeholders the script fills in.
 */
const { en } = WIDGET_CATALOGS;

describe('the widget’s catalogs', () => {
  it('every supported language has one with exactly the documented keys, none empty', () => {
    expect(Object.keys(WIDGET_CATALOGS).sort()).toEqual([...LANGUAGES].sort());
    for (const [language, catalog] of Object.entries(WIDGET_CATALOGS)) {
      expect(Object.keys(catalog).sort(), language).toEqual([...WIDGET_STRING_KEYS].sort());
      for (const [key, text] of Object.entries(catalog)) {
        expect(text.trim(), `${language}.${key}`).toBe(text);
        expect(text.length, `${language}.${key}`).toBeGreaterThan(0);
        expect(text.length, `${language}.${key}`).toBeLessThanOrEqual(500);
      }
    }
  });

  it('each text uses exactly its key’s placeholders', () => {
    for (const [language, catalog] of Object.entries(WIDGET_CATALOGS)) {
      for (const key of WIDGET_STRING_KEYS) {
        expect(placeholdersOf(catalog[key]).sort(), `${language}.${key}`).toEqual(
          placeholdersOf(en[key]).sort(),
        );
      }
    }
  });

  it('no English is left in another language’s catalog', () => {
    const english = /\b(the|your|you|please|thanks|thank|sorry|chat with|we'll|can't|isn't|couldn't)\b/i;
    for (const [language, catalog] of Object.entries(WIDGET_CATALOGS)) {
      if (language === 'en') continue;
      for (const key of WIDGET_STRING_KEYS) {
        const text = catalog[key];
        expect(text, `${language}.${key} is the English text`).not.toBe(en[key]);
        expect(english.test(text), `${language}.${key}: ${text}`).toBe(false);
      }
    }
  });

  it('the scripts match the languages: Arabic, Japanese and Chinese texts are written in them', () => {
    const scripts: Record<string, RegExp> = {
      ar: /\p{Script=Arabic}/u,
      ja: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u,
      'zh-Hans': /\p{Script=Han}/u,
    };
    for (const [language, script] of Object.entries(scripts)) {
      const catalog = WIDGET_CATALOGS[language as keyof typeof WIDGET_CATALOGS];
      for (const key of WIDGET_STRING_KEYS)
        expect(script.test(catalog[key]), `${language}.${key}`).toBe(true);
    }
    // Simplified, not traditional, characters.
    expect(Object.values(WIDGET_CATALOGS['zh-Hans']).join('')).not.toMatch(/[對話開關發訊]/);
  });

  it('the built script carries English only: the other catalogs come from the server', () => {
    const built = new URL('../../../widget/dist/widget.js', import.meta.url);
    if (!existsSync(built)) return;
    const code = readFileSync(built, 'utf8');
    expect(code).toContain(en.placeholder);
    for (const language of LANGUAGES.filter((l) => l !== 'en')) {
      expect(code, language).not.toContain(WIDGET_CATALOGS[language].placeholder);
    }
  });
});
