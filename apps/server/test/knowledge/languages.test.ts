import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compoundParts, termOf } from '../../src/features/knowledge/retrieval/analysis.ts';
import { createLexicalIndex } from '../../src/features/knowledge/retrieval/lexical-cache.ts';
import { addSource, createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { drainIngestion } from './helpers.ts';

/**
 * Retrieval in every supported language (docs/languages.md "Retrieval"), through the search
 * endpoint, on PGlite or on PostgreSQL (DATABASE_URL): passages get their language at ingestion,
 * questions are read in theirs, and both the in-process index and PostgreSQL full text (the path of
 * namespaces too large to hold) stem or segment them.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

type Hit = {
  sourceId: string;
  language: string | null;
  textScore: number | null;
  lexicalRank: number | null;
};
async function search(assistantId: string, q: string, k = 5): Promise<Hit[]> {
  const res = await t.request({
    method: 'GET',
    url: `/api/assistants/${assistantId}/search?q=${encodeURIComponent(q)}&k=${k}`,
    headers: w.owner.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}
const qa = (assistantId: string, question: string, answer: string) =>
  addSource(t, w.owner, assistantId, { type: 'qa', name: 'FAQ', pairs: [{ question, answer }] });

/**
 * Per language: a pair about refunds or returns, a pair about something else, and a question that
 * shares the first pair's key word only through its stem (another inflection) or, for Japanese and
 * Chinese, only once the words are segmented.
 */
const CASES: Array<{ language: string; target: [string, string]; other: [string, string]; ask: string }> = [
  {
    language: 'en',
    target: ['When are refunds paid back to customers?', 'Within five business days of the return.'],
    other: ['Where is the shop located?', 'On the high street, next to the station.'],
    ask: 'I was refunded twice',
  },
  {
    language: 'es',
    target: ['¿Cuándo se pagan los reembolsos a los clientes?', 'En un plazo de cinco días hábiles.'],
    other: ['¿Dónde está la tienda?', 'En la calle principal, al lado de la estación.'],
    ask: 'Quiero un reembolso de mi compra',
  },
  {
    language: 'fr',
    target: [
      'Quand les remboursements sont-ils versés aux clients ?',
      'Sous cinq jours ouvrés après le retour.',
    ],
    other: ['Où se trouve la boutique ?', 'Dans la grande rue, à côté de la gare.'],
    ask: 'Je voudrais être remboursé de ma commande',
  },
  {
    language: 'de',
    target: [
      'Wann werden Rückerstattungen an Kunden ausgezahlt?',
      'Innerhalb von fünf Werktagen nach der Rücksendung.',
    ],
    other: ['Wo befindet sich der Laden?', 'In der Hauptstraße neben dem Bahnhof.'],
    ask: 'Ich möchte eine Rückerstattung für meine Bestellung',
  },
  {
    language: 'pt',
    target: ['Quando os reembolsos são pagos aos clientes?', 'Em até cinco dias úteis após a devolução.'],
    other: ['Onde fica a loja?', 'Na rua principal, ao lado da estação.'],
    ask: 'Quero um reembolso da minha compra',
  },
  {
    language: 'it',
    target: ['Quando vengono pagati i rimborsi ai clienti?', 'Entro cinque giorni lavorativi dal reso.'],
    other: ['Dove si trova il negozio?', 'Nella via principale, vicino alla stazione.'],
    ask: 'Vorrei un rimborso subito',
  },
  {
    language: 'nl',
    target: ['Wanneer worden terugbetalingen aan klanten uitgekeerd?', 'Binnen vijf werkdagen na de retour.'],
    other: ['Waar is de winkel?', 'In de hoofdstraat, naast het station.'],
    ask: 'Ik wil een terugbetaling voor mijn bestelling',
  },
  {
    language: 'pl',
    target: [
      'Kiedy klienci otrzymują zwroty pieniędzy?',
      'W ciągu pięciu dni roboczych od odesłania towaru.',
    ],
    other: ['Gdzie znajduje się sklep?', 'Przy głównej ulicy, obok dworca.'],
    ask: 'Proszę o zwrotu za zamówienie',
  },
  {
    language: 'tr',
    target: ['İadeler müşterilere ne zaman ödenir?', 'Ürün geri gönderildikten sonra beş iş günü içinde.'],
    other: ['Mağaza nerede?', 'Ana caddede, istasyonun yanında.'],
    ask: 'İademi ne zaman alırım?',
  },
  {
    language: 'ja',
    target: ['返金はいつお客様に支払われますか？', '返品から5営業日以内にお支払いします。'],
    other: ['お店はどこにありますか？', '駅の隣の大通りにあります。'],
    ask: '返金してほしいです',
  },
  {
    language: 'zh-Hans',
    target: ['退款什么时候支付给客户？', '退货后五个工作日内支付。'],
    other: ['商店在哪里？', '在主街上，火车站旁边。'],
    ask: '我想申请退款',
  },
  {
    language: 'ar',
    target: ['هل يمكنني إرجاع المنتجات بعد الشراء؟', 'نعم، خلال ثلاثين يوما من تاريخ الشراء.'],
    other: ['أين يقع المتجر؟', 'في الشارع الرئيسي بجانب المحطة.'],
    ask: 'أريد إرجاع منتج واحد',
  },
];

describe('retrieval per language', () => {
  const assistants = new Map<string, { id: string; target: string }>();
  beforeAll(async () => {
    for (const c of CASES) {
      const id = await createAssistant(t, w.owner, w.ws);
      const target = await qa(id, ...c.target);
      await qa(id, ...c.other);
      assistants.set(c.language, { id, target: target.id });
    }
    await drainIngestion(t);
  });

  for (const c of CASES)
    it(`${c.language}: passages carry their language; the question's words meet theirs`, async () => {
      const { id, target } = assistants.get(c.language)!;
      const hits = await search(id, c.ask);
      expect(hits.map((h) => h.language)).toEqual(hits.map(() => c.language));
      expect(hits[0]?.sourceId).toBe(target);
      // the words matched (not only the vectors' character features)
      expect(hits[0]?.lexicalRank).toBe(1);
      expect(hits[0]?.textScore).toBeGreaterThan(0);
    });

  for (const language of ['es', 'de', 'pl', 'ja', 'zh-Hans', 'ar'])
    it(`${language}: PostgreSQL full text (namespaces too large to hold) stems and segments too`, async () => {
      const c = CASES.find((x) => x.language === language)!;
      const { id, target } = assistants.get(language)!;
      const held = t.ctx.vectors.lexical;
      t.ctx.vectors.lexical = createLexicalIndex(t.ctx, 0);
      try {
        const hits = await search(id, c.ask);
        const top = hits.find((h) => h.textScore !== null);
        expect(top?.sourceId).toBe(target);
      } finally {
        t.ctx.vectors.lexical = held;
      }
    });
});

/**
 * Words no stemmer or segmenter makes meet (docs/languages.md "Retrieval"): a German or Dutch
 * compound whose first part is the pair's word, and a Chinese or Japanese question the segmenter
 * cuts otherwise than the pair ("开发票" as "开发|票", the pair's "发票" whole; "領収証" whole, the
 * pair's "領収|書"), which meet only through their parts or their character bigrams.
 */
const SUBWORD_CASES: Array<{
  language: string;
  target: [string, string];
  other: [string, string];
  ask: string;
}> = [
  {
    language: 'de',
    target: ['Wie lange dauert die Lieferung?', 'Die Lieferung dauert drei bis fünf Werktage.'],
    other: ['Kann ich mit Karte bezahlen?', 'Wir nehmen alle gängigen Kreditkarten.'],
    ask: 'Lieferzeit nach Österreich',
  },
  {
    language: 'nl',
    target: ['Hoe lang duurt de levering?', 'De levering duurt drie tot vijf werkdagen.'],
    other: ['Kan ik met een creditcard betalen?', 'Wij accepteren alle gangbare creditcards.'],
    ask: 'leveringskosten naar België',
  },
  {
    language: 'ja',
    target: ['領収書を発行できますか？', 'はい、注文の画面からいつでも発行できます。'],
    other: ['営業時間は何時までですか？', '平日の9時から18時までです。'],
    ask: '領収証がほしい',
  },
  {
    language: 'zh-Hans',
    target: ['如何申请发票？', '在订单页面点击申请即可。'],
    other: ['营业时间是几点？', '工作日九点到六点。'],
    ask: '我想开发票',
  },
];

describe('compounds and other segmentations', () => {
  const assistants = new Map<string, { id: string; target: string }>();
  beforeAll(async () => {
    for (const c of SUBWORD_CASES) {
      const id = await createAssistant(t, w.owner, w.ws);
      const target = await qa(id, ...c.target);
      await qa(id, ...c.other);
      assistants.set(c.language, { id, target: target.id });
    }
    await drainIngestion(t);
  });

  for (const c of SUBWORD_CASES)
    it(`${c.language}: "${c.ask}" meets its pair through parts of its words`, async () => {
      const { id, target } = assistants.get(c.language)!;
      const hits = await search(id, c.ask);
      expect(hits[0]?.sourceId).toBe(target);
      expect(hits[0]?.lexicalRank).toBe(1);
      // the other pair shares no part of the question's words
      expect(hits.filter((h) => h.lexicalRank !== null)).toHaveLength(1);
    });

  it('takes only parts the knowledge has, at the start of a word, and never a word inside another', () => {
    // (words as analysis.ts `rawWords` gives them: lower-cased)
    const known = (t: string) => ['hand', 'corona', 'virus', 'lever'].includes(t);
    expect(compoundParts('coronavirus', 'nl', known)).toEqual(['corona', 'virus']);
    expect(compoundParts('handgel', 'de', known)).toEqual(['hand']);
    // "be-hand-eling": a known word inside, not at the start of a part
    expect(compoundParts('behandeling', 'nl', known)).toEqual([]);
    // an inflection is the stemmer's, and languages that do not compound are left whole
    expect(compoundParts('leveren', 'nl', known)).toEqual([]);
    expect(compoundParts('coronavirus', 'en', known)).toEqual([]);
    // a Dutch start of a word is looked up by its term, which Kraaij-Pohlmann may spell otherwise
    expect(termOf('levering', 'nl')).toBe('leveer');
    expect(compoundParts('leveringskosten', 'nl', (t) => t === 'leveer')).toEqual(['leveer']);
  });

  it('reads Dutch with Kraaij-Pohlmann: derivations, participles and open syllables meet', () => {
    expect(termOf('vaccinatie', 'nl')).toBe(termOf('vaccineer', 'nl'));
    expect(termOf('gewerkt', 'nl')).toBe(termOf('werken', 'nl'));
    expect(termOf('werkt', 'nl')).toBe(termOf('werken', 'nl'));
    expect(termOf('bomen', 'nl')).toBe(termOf('boom', 'nl'));
    expect(termOf('betaalbaar', 'nl')).toBe(termOf('betalen', 'nl'));
  });
});

describe('knowledge in several languages', () => {
  let id: string;
  const sources: Record<string, string> = {};
  beforeAll(async () => {
    id = await createAssistant(t, w.owner, w.ws);
    sources.en = (
      await qa(id, 'Do you ship parcels abroad?', 'Yes, we deliver parcels to 40 countries by courier.')
    ).id;
    sources.es = (
      await qa(id, '¿Envían paquetes al extranjero?', 'Sí, entregamos paquetes en 40 países por mensajería.')
    ).id;
    sources.ja = (await qa(id, '海外に荷物を発送できますか？', 'はい、40か国に宅配便でお届けします。')).id;
    sources.other = (await qa(id, 'Can I pay by card?', 'We take every major credit card.')).id;
    await drainIngestion(t);
  });

  it('answers a question from the passages in its language first', async () => {
    expect((await search(id, '¿Pueden enviar mi paquete a Francia?'))[0]?.sourceId).toBe(sources.es);
    expect((await search(id, 'Can you ship my parcel to France?'))[0]?.sourceId).toBe(sources.en);
    expect((await search(id, 'フランスに荷物を送れますか'))[0]?.sourceId).toBe(sources.ja);
  });

  it('reads a question too short to tell language-neutrally: the reading the knowledge holds wins', async () => {
    // one word: no language can be told from it, yet it is a Spanish plural of the Spanish pair's word
    const hits = await search(id, 'paquetes');
    expect(hits[0]?.sourceId).toBe(sources.es);
    expect(hits[0]?.lexicalRank).toBe(1);
  });
});

describe('passages too short to tell', () => {
  it('have no language, and are still found', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const src = await qa(id, 'Wifi?', 'Yes.');
    await drainIngestion(t);
    const [hit] = await search(id, 'wifi');
    expect(hit?.sourceId).toBe(src.id);
    expect(hit?.language).toBeNull();
  });

  it('take the language of their source when it can be told', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const src = await addSource(t, w.owner, id, {
      type: 'qa',
      name: 'FAQ',
      pairs: [
        { question: '¿Horario?', answer: 'De nueve a cinco.' },
        {
          question: '¿Puedo cambiar la dirección de entrega después de hacer el pedido?',
          answer: 'Sí, mientras el pedido no haya salido del almacén, desde la página de tu cuenta.',
        },
      ],
    });
    await drainIngestion(t);
    const hits = await search(id, 'horario');
    expect(hits.find((h) => h.sourceId === src.id)?.language).toBe('es');
    expect(hits.every((h) => h.language === 'es')).toBe(true);
  });
});

describe('odd text', () => {
  it('any script, marks, emoji, digits or a long run without spaces: a 200, never an error', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    await qa(id, 'İadeler ne zaman ödenir?', 'Beş iş günü içinde. 返金は5営業日以内です。');
    await drainIngestion(t);
    for (const q of [
      '🙂🙂🙂',
      '١٢٣٤ ٥٦٧',
      'e\u0301\u0301\u0301 a\u0308 ﬁ ＡＢＣ',
      '返'.repeat(400),
      'İIıi ŞşĞğ',
      '\u202eevil\u202c عربى mixed English 日本語 한국어',
      'ا'.repeat(300),
    ]) {
      const res = await t.request({
        method: 'GET',
        url: `/api/assistants/${id}/search?q=${encodeURIComponent(q)}&k=5`,
        headers: w.owner.headers,
      });
      expect([q.slice(0, 20), res.statusCode]).toEqual([q.slice(0, 20), 200]);
    }
  });
});
