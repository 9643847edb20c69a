import { describe, expect, it } from 'vitest';
import {
  detectLanguage,
  languageDetector,
  loadedDetector,
  loadLanguageDetector,
  MIN_LETTERS,
} from '../../src/lib/language-detect.ts';

/** Language detection (src/lib/language-detect.ts; docs/languages.md "Retrieval"). */
describe('language detection', () => {
  it('tells each supported language from one short customer sentence', async () => {
    const samples: Record<string, string> = {
      en: 'Where is my parcel? I ordered it last week.',
      es: '¿Dónde está mi pedido? Lo compré la semana pasada.',
      fr: "Où est mon colis ? Je l'ai commandé la semaine dernière.",
      de: 'Wo ist mein Paket? Ich habe es letzte Woche bestellt.',
      pt: 'Onde está a minha encomenda? Comprei na semana passada.',
      it: "Dov'è il mio pacco? L'ho ordinato la settimana scorsa.",
      nl: 'Waar is mijn pakket? Ik heb het vorige week besteld.',
      pl: 'Gdzie jest moja paczka? Zamówiłem ją w zeszłym tygodniu.',
      tr: 'Kargom nerede? Geçen hafta sipariş verdim.',
      ja: '荷物はどこですか？先週注文しました。',
      'zh-Hans': '我的包裹在哪里？我上周订购的。',
      ar: 'أين طردي؟ لقد طلبته الأسبوع الماضي.',
    };
    const detect = await languageDetector();
    for (const [language, text] of Object.entries(samples))
      expect([language, detect(text)]).toEqual([language, language]);
  });

  it('tells the Chinese script: traditional characters make zh-Hant', async () => {
    expect(await detectLanguage('我怎么申请退款？')).toBe('zh-Hans');
    expect(await detectLanguage('我怎麼申請退款？')).toBe('zh-Hant');
    // characters both scripts write alike: simplified, the more common
    expect(await detectLanguage('口罩')).toBe('zh-Hans');
  });

  it('needs no more than a word or two in scripts that tell the language by themselves', async () => {
    expect(await detectLanguage('マスク')).toBe('ja');
    expect(await detectLanguage('退款')).toBe('zh-Hans');
    expect(await detectLanguage('환불')).toBe('ko');
  });

  it('says null when the text is too short or has no letters', async () => {
    for (const text of [
      'ok',
      'Hola',
      'thanks!',
      '12345 678',
      '🙂🙂🙂',
      '',
      '   ',
      '中',
      'x'.repeat(MIN_LETTERS - 1),
    ])
      expect([text, await detectLanguage(text)]).toEqual([text, null]);
  });

  it('gives a mixed text its main language', async () => {
    expect(
      await detectLanguage(
        'Hola, necesito ayuda con mi pedido, no ha llegado todavía. Order #A-1234, tracking ok',
      ),
    ).toBe('es');
    expect(
      await detectLanguage(
        'I bought the "Schwarzwälder Kirschtorte" set and it arrived broken, can I return it?',
      ),
    ).toBe('en');
    // a Japanese sentence with an English product name is Japanese
    expect(await detectLanguage('iPhone 15 Pro Max の返品はできますか？')).toBe('ja');
  });

  it('reads only the start of a long text, and fast', async () => {
    const detect = await languageDetector();
    const long = 'Bonjour, je voudrais savoir quand ma commande arrivera. '.repeat(5000);
    const start = performance.now();
    expect(detect(long)).toBe('fr');
    for (let i = 0; i < 200; i++) detect('¿Dónde está mi pedido? Lo compré la semana pasada.');
    expect(performance.now() - start).toBeLessThan(1000);
  });

  it('once loaded, answers synchronously; a guess where it is unsure', async () => {
    await loadLanguageDetector();
    const d = loadedDetector()!;
    expect(d.detect('Gracias')).toBeNull();
    expect(d.guess('Gracias')).not.toBeNull();
    expect(d.guess('ok')).toBeNull();
    expect(d.guess('¿Dónde está mi pedido?')).toBe('es');
  });
});
