import { LANGUAGES, type Language } from '@parley/contract/languages';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations } from '../../src/db/schema/index.ts';
import { linesFor } from '../../src/providers/llm/responder-lines.ts';
import { inbox } from '../inbox/helpers.ts';
import { type InboxApp, startInbox, visitorOf } from '../inbox/setup.ts';
import { drainIngestion } from '../knowledge/helpers.ts';
import { addSource, createAssistant } from '../support/factories.ts';
import { widgetChat } from '../widget/helpers.ts';
import { chat, messagesOf } from './helpers.ts';

/**
 * The conversation's language and the built-in responder's own lines (docs/languages.md
 * "Conversations", "Answers"): detected from the customer's messages on every channel that takes
 * them, kept through short messages, and the responder's declines in that language.
 */
let a: InboxApp;
let bare: string;
beforeAll(async () => {
  a = await startInbox();
  // No knowledge: every question is declined, in the customer's language.
  bare = await createAssistant(a.t, a.w.owner, a.w.ws, { name: 'Bare' });
});
afterAll(() => a.t.close());

/** A question no knowledge answers, as a customer would write it in each supported language. */
const QUESTIONS: Record<Language, string> = {
  en: 'Could you tell me whether the store downtown is open on public holidays?',
  es: '¿Podrías decirme si la tienda del centro abre los días festivos?',
  fr: 'Pourriez-vous me dire si le magasin du centre-ville est ouvert les jours fériés ?',
  de: 'Können Sie mir sagen, ob das Geschäft in der Innenstadt an Feiertagen geöffnet ist?',
  pt: 'Você poderia me dizer se a loja do centro abre nos feriados?',
  it: 'Potresti dirmi se il negozio in centro è aperto nei giorni festivi?',
  nl: 'Kunt u mij vertellen of de winkel in het centrum op feestdagen open is?',
  pl: 'Czy możesz mi powiedzieć, czy sklep w centrum jest otwarty w święta?',
  tr: 'Şehir merkezindeki mağazanın resmi tatillerde açık olup olmadığını söyler misiniz?',
  ja: '駅前の店舗は祝日も営業していますか？',
  'zh-Hans': '请问市中心的门店节假日营业吗？',
  ar: 'هل يمكنك أن تخبرني إن كان المتجر في وسط المدينة مفتوحًا في أيام العطل الرسمية؟',
};

const languageOf = async (id: string) =>
  (await a.t.ctx.db.select().from(conversations).where(eq(conversations.id, id)))[0]?.language;

describe('the built-in responder in the customer language', () => {
  for (const language of LANGUAGES) {
    it(`declines in ${language} and marks the conversation ${language}`, async () => {
      const r = await chat(a.t, a.w.owner, { assistantId: bare, content: QUESTIONS[language] });
      expect(r.status).toBe(200);
      expect(r.text).toBe(linesFor(language).notFound);
      const id = r.conversationId as string;
      expect(await languageOf(id)).toBe(language);
      const stored = await messagesOf(a.t, a.w.owner, id);
      expect((stored.at(-1) as { outcome?: string } | undefined)?.outcome).toBe('declined');
      const list = await a.t.request({
        method: 'GET',
        url: `/api/chat/conversations?assistantId=${bare}`,
        headers: a.w.owner.headers,
      });
      expect(list.json().data.find((c: { id: string }) => c.id === id)?.language).toBe(language);
    });
  }
});

describe('answers from passages in the customer language', () => {
  it('answers from the passage in that language when the knowledge has one, else from the other after saying so', async () => {
    const both = await createAssistant(a.t, a.w.owner, a.w.ws, { name: 'Both' });
    await addSource(a.t, a.w.owner, both, {
      type: 'qa',
      pairs: [
        { question: 'How long do refunds take?', answer: 'Refunds reach your card within 5 business days.' },
        {
          question: '¿Cuánto tardan los reembolsos?',
          answer: 'Los reembolsos llegan a tu tarjeta en un plazo de 5 días hábiles.',
        },
      ],
    });
    const english = await createAssistant(a.t, a.w.owner, a.w.ws, { name: 'English only' });
    await addSource(a.t, a.w.owner, english, {
      type: 'text',
      name: 'Kettle Pro 3000',
      text: '# Kettle Pro 3000\n\nThe Kettle Pro 3000 has an international warranty of two years on every part.',
    });
    await drainIngestion(a.t);
    const es = await chat(a.t, a.w.owner, {
      assistantId: both,
      content: '¿Cuánto tiempo tardan los reembolsos?',
    });
    expect(es.text).toBe('Los reembolsos llegan a tu tarjeta en un plazo de 5 días hábiles. [1]');
    const other = await chat(a.t, a.w.owner, {
      assistantId: english,
      content: '¿La Kettle Pro 3000 tiene garantía internacional de dos años?',
    });
    expect(await languageOf(other.conversationId as string)).toBe('es');
    expect(other.text.startsWith(`${linesFor('es').otherLanguage} `)).toBe(true);
    expect(other.text).toContain('international warranty');
  });
});

describe("the conversation's language", () => {
  it('stays null on a short first message, is set by a telling one, and a short one keeps it', async () => {
    const first = await chat(a.t, a.w.owner, { assistantId: bare, content: 'ok' });
    const id = first.conversationId as string;
    expect(await languageOf(id)).toBeNull();
    await chat(a.t, a.w.owner, { assistantId: bare, conversationId: id, content: QUESTIONS.es });
    expect(await languageOf(id)).toBe('es');
    const short = await chat(a.t, a.w.owner, { assistantId: bare, conversationId: id, content: 'ok, 12345' });
    expect(await languageOf(id)).toBe('es');
    // The short message's decline is still in Spanish.
    expect(short.text).toBe(linesFor('es').notFound);
    // A customer who changes language changes it.
    await chat(a.t, a.w.owner, { assistantId: bare, conversationId: id, content: QUESTIONS.de });
    expect(await languageOf(id)).toBe('de');
  });

  it('takes a language from any message of twenty letters or more, and keeps mixed text to its main language', async () => {
    const r = await chat(a.t, a.w.owner, {
      assistantId: bare,
      content: 'Mi pedido no ha llegado todavía, order #A-1234, ¿qué puedo hacer?',
    });
    expect(await languageOf(r.conversationId as string)).toBe('es');
  });

  it('is detected on widget conversations, shown in the inbox and filtered with language=', async () => {
    const fr = await visitorOf(a.t, a.asst, QUESTIONS.fr);
    const ja = await visitorOf(a.t, a.asst, QUESTIONS.ja);
    expect(await languageOf(fr.id)).toBe('fr');
    expect(await languageOf(ja.id)).toBe('ja');
    const all = await inbox(a.t, a.w.owner, 'GET', `?workspaceId=${a.w.ws}&limit=100`);
    expect(all.statusCode).toBe(200);
    const byId = new Map(
      all.json().data.map((c: { id: string; language: string | null }) => [c.id, c.language]),
    );
    expect(byId.get(fr.id)).toBe('fr');
    const onlyFr = await inbox(a.t, a.w.owner, 'GET', `?workspaceId=${a.w.ws}&language=fr&limit=100`);
    expect(onlyFr.statusCode).toBe(200);
    const ids = onlyFr.json().data.map((c: { id: string }) => c.id);
    expect(ids).toContain(fr.id);
    expect(ids).not.toContain(ja.id);
    expect(onlyFr.json().data.every((c: { language: string }) => c.language === 'fr')).toBe(true);
    // A short later message in the widget keeps it.
    await widgetChat(a.t, a.asst, fr.s, 'merci');
    expect(await languageOf(fr.id)).toBe('fr');
  });

  it('refuses a language filter that is not a language tag', async () => {
    for (const bad of ['french', 'FR', 'fr-fr', 'x'.repeat(50), '🙂']) {
      const r = await inbox(
        a.t,
        a.w.owner,
        'GET',
        `?workspaceId=${a.w.ws}&language=${encodeURIComponent(bad)}`,
      );
      expect(r.statusCode, bad).toBe(400);
    }
  });
});
