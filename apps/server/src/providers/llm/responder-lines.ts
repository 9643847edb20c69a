import { LANGUAGES, type Language } from '@parley/contract/languages';

/**
 * The built-in responder's own lines, and the handoff notice, in every supported language
 * (docs/languages.md "Answers"): always in the conversation's language, English when it has none
 * or it is not one of packages/contract/src/languages.ts.
 */
export type ResponderLines = {
  /** Said when the knowledge holds no answer (the reply's outcome is then `declined`). */
  notFound: string;
  greeting: string;
  thanks: string;
  humanAsked: string;
  ticketOpened: (ticketId: string) => string;
  couldNotComplete: (error: string) => string;
  /** Before an excerpt when no sentence matched the question's words. */
  foundExcerpt: string;
  /** Before an answer from passages in another language than the customer's. */
  otherLanguage: string;
  /** A rule or a withheld reply handed the conversation to a person. */
  handoffNotice: string;
};

const LINES: Record<Language, ResponderLines> = {
  en: {
    notFound:
      "I'm sorry, I don't know the answer to that: I couldn't find it in the information I have. If you like, I can connect you with a member of our team.",
    greeting: 'Hello! How can I help you today?',
    thanks: "You're welcome! Is there anything else I can help with?",
    humanAsked:
      "I've asked a member of our team to join this conversation. They'll reply here as soon as they can.",
    ticketOpened: (id) => `I've opened a support ticket for you (${id}). Our team will follow up.`,
    couldNotComplete: (e) => `I couldn't complete that: ${e}`,
    foundExcerpt: 'Here is what I found:',
    otherLanguage: "I don't have this in your language yet; here is what I found:",
    handoffNotice: 'Thanks for your message. A person from our team will answer you here shortly.',
  },
  es: {
    notFound:
      'Lo siento, no sé la respuesta: no la encontré en la información que tengo. Si quieres, puedo ponerte en contacto con una persona de nuestro equipo.',
    greeting: '¡Hola! ¿En qué puedo ayudarte hoy?',
    thanks: '¡De nada! ¿Hay algo más en lo que pueda ayudarte?',
    humanAsked:
      'He pedido a una persona de nuestro equipo que se una a esta conversación. Te responderá aquí lo antes posible.',
    ticketOpened: (id) =>
      `He abierto una incidencia de soporte para ti (${id}). Nuestro equipo te responderá.`,
    couldNotComplete: (e) => `No he podido completarlo: ${e}`,
    foundExcerpt: 'Esto es lo que he encontrado:',
    otherLanguage: 'Todavía no tengo esta información en tu idioma; esto es lo que he encontrado:',
    handoffNotice: 'Gracias por tu mensaje. Una persona de nuestro equipo te responderá aquí en breve.',
  },
  fr: {
    notFound:
      "Désolé, je ne connais pas la réponse : je ne l'ai pas trouvée dans les informations dont je dispose. Si vous le souhaitez, je peux vous mettre en relation avec un membre de notre équipe.",
    greeting: "Bonjour ! Comment puis-je vous aider aujourd'hui ?",
    thanks: 'Avec plaisir ! Puis-je vous aider pour autre chose ?',
    humanAsked:
      "J'ai demandé à un membre de notre équipe de rejoindre cette conversation. Il vous répondra ici dès que possible.",
    ticketOpened: (id) =>
      `J'ai ouvert un ticket d'assistance pour vous (${id}). Notre équipe reviendra vers vous.`,
    couldNotComplete: (e) => `Je n'ai pas pu le faire : ${e}`,
    foundExcerpt: "Voici ce que j'ai trouvé :",
    otherLanguage: "Je n'ai pas encore cette information dans votre langue ; voici ce que j'ai trouvé :",
    handoffNotice: 'Merci pour votre message. Un membre de notre équipe vous répondra ici très bientôt.',
  },
  de: {
    notFound:
      'Das tut mir leid, darauf weiß ich keine Antwort: Ich habe sie in meinen Informationen nicht gefunden. Wenn Sie möchten, verbinde ich Sie mit jemandem aus unserem Team.',
    greeting: 'Hallo! Wie kann ich Ihnen heute helfen?',
    thanks: 'Gern geschehen! Kann ich Ihnen sonst noch helfen?',
    humanAsked:
      'Ich habe jemanden aus unserem Team gebeten, dieses Gespräch zu übernehmen. Sie erhalten hier so bald wie möglich eine Antwort.',
    ticketOpened: (id) =>
      `Ich habe ein Support-Ticket für Sie eröffnet (${id}). Unser Team meldet sich bei Ihnen.`,
    couldNotComplete: (e) => `Das konnte ich nicht erledigen: ${e}`,
    foundExcerpt: 'Das habe ich gefunden:',
    otherLanguage: 'Diese Information habe ich noch nicht in Ihrer Sprache; das habe ich gefunden:',
    handoffNotice: 'Danke für Ihre Nachricht. Jemand aus unserem Team antwortet Ihnen hier in Kürze.',
  },
  pt: {
    notFound:
      'Desculpe, não sei a resposta: não a encontrei nas informações que tenho. Se quiser, posso colocá-lo em contato com alguém da nossa equipe.',
    greeting: 'Olá! Como posso ajudar hoje?',
    thanks: 'De nada! Posso ajudar em mais alguma coisa?',
    humanAsked:
      'Pedi a alguém da nossa equipe para entrar nesta conversa. Você receberá uma resposta aqui assim que possível.',
    ticketOpened: (id) => `Abri um chamado de suporte para você (${id}). Nossa equipe entrará em contato.`,
    couldNotComplete: (e) => `Não consegui concluir: ${e}`,
    foundExcerpt: 'Veja o que encontrei:',
    otherLanguage: 'Ainda não tenho esta informação no seu idioma; veja o que encontrei:',
    handoffNotice: 'Obrigado pela sua mensagem. Alguém da nossa equipe vai responder aqui em breve.',
  },
  it: {
    notFound:
      'Mi dispiace, non conosco la risposta: non l’ho trovata nelle informazioni che ho. Se vuoi, posso metterti in contatto con una persona del nostro team.',
    greeting: 'Ciao! Come posso aiutarti oggi?',
    thanks: 'Prego! Posso aiutarti in qualcos’altro?',
    humanAsked:
      'Ho chiesto a una persona del nostro team di unirsi a questa conversazione. Ti risponderà qui appena possibile.',
    ticketOpened: (id) =>
      `Ho aperto una richiesta di assistenza per te (${id}). Il nostro team ti ricontatterà.`,
    couldNotComplete: (e) => `Non sono riuscito a completarlo: ${e}`,
    foundExcerpt: 'Ecco cosa ho trovato:',
    otherLanguage: 'Non ho ancora questa informazione nella tua lingua; ecco cosa ho trovato:',
    handoffNotice: 'Grazie per il tuo messaggio. Una persona del nostro team ti risponderà qui a breve.',
  },
  nl: {
    notFound:
      'Sorry, daar weet ik het antwoord niet op: ik heb het niet gevonden in de informatie die ik heb. Als je wilt, breng ik je in contact met iemand van ons team.',
    greeting: 'Hallo! Waarmee kan ik je vandaag helpen?',
    thanks: 'Graag gedaan! Kan ik je nog ergens anders mee helpen?',
    humanAsked:
      'Ik heb iemand van ons team gevraagd dit gesprek over te nemen. Je krijgt hier zo snel mogelijk antwoord.',
    ticketOpened: (id) =>
      `Ik heb een supportticket voor je aangemaakt (${id}). Ons team neemt contact met je op.`,
    couldNotComplete: (e) => `Dat is me niet gelukt: ${e}`,
    foundExcerpt: 'Dit heb ik gevonden:',
    otherLanguage: 'Deze informatie heb ik nog niet in jouw taal; dit heb ik gevonden:',
    handoffNotice: 'Bedankt voor je bericht. Iemand van ons team antwoordt je hier zo snel mogelijk.',
  },
  pl: {
    notFound:
      'Przepraszam, nie znam odpowiedzi: nie znalazłem jej w informacjach, które mam. Jeśli chcesz, mogę połączyć Cię z osobą z naszego zespołu.',
    greeting: 'Dzień dobry! W czym mogę dziś pomóc?',
    thanks: 'Nie ma za co! Czy mogę pomóc w czymś jeszcze?',
    humanAsked:
      'Poprosiłem osobę z naszego zespołu o dołączenie do tej rozmowy. Odpowie tutaj tak szybko, jak to możliwe.',
    ticketOpened: (id) => `Utworzyłem dla Ciebie zgłoszenie (${id}). Nasz zespół się odezwie.`,
    couldNotComplete: (e) => `Nie udało mi się tego zrobić: ${e}`,
    foundExcerpt: 'Oto, co znalazłem:',
    otherLanguage: 'Nie mam jeszcze tej informacji w Twoim języku; oto, co znalazłem:',
    handoffNotice: 'Dziękujemy za wiadomość. Osoba z naszego zespołu wkrótce odpowie tutaj.',
  },
  tr: {
    notFound:
      'Üzgünüm, bunun cevabını bilmiyorum: elimdeki bilgilerde bulamadım. İsterseniz sizi ekibimizden biriyle görüştürebilirim.',
    greeting: 'Merhaba! Bugün size nasıl yardımcı olabilirim?',
    thanks: 'Rica ederim! Yardımcı olabileceğim başka bir şey var mı?',
    humanAsked:
      'Ekibimizden birinin bu görüşmeye katılmasını istedim. Size en kısa sürede buradan yanıt verecek.',
    ticketOpened: (id) => `Sizin için bir destek talebi açtım (${id}). Ekibimiz size dönüş yapacak.`,
    couldNotComplete: (e) => `Bunu tamamlayamadım: ${e}`,
    foundExcerpt: 'Bulduklarım şunlar:',
    otherLanguage: 'Bu bilgi henüz sizin dilinizde yok; bulduklarım şunlar:',
    handoffNotice:
      'Mesajınız için teşekkürler. Ekibimizden biri size kısa süre içinde buradan yanıt verecek.',
  },
  ja: {
    notFound:
      '申し訳ありません。その答えはわかりません。手元の情報には見つかりませんでした。よろしければ、担当者におつなぎします。',
    greeting: 'こんにちは！本日はどのようなご用件でしょうか？',
    thanks: 'どういたしまして！ほかにお手伝いできることはありますか？',
    humanAsked: '担当者にこの会話への参加を依頼しました。できるだけ早くこちらで返信いたします。',
    ticketOpened: (id) => `サポートチケットを作成しました（${id}）。担当チームからご連絡します。`,
    couldNotComplete: (e) => `完了できませんでした: ${e}`,
    foundExcerpt: '見つかった情報は次のとおりです:',
    otherLanguage: 'この情報はまだお客様の言語でご用意がありません。見つかった情報は次のとおりです:',
    handoffNotice: 'メッセージをありがとうございます。まもなく担当者がこちらで返信いたします。',
  },
  'zh-Hans': {
    notFound:
      '抱歉，我不知道这个问题的答案：在我掌握的信息中没有找到。如果您愿意，我可以为您联系我们团队的成员。',
    greeting: '您好！今天有什么可以帮您？',
    thanks: '不客气！还有其他可以帮您的吗？',
    humanAsked: '我已请我们团队的成员加入此对话，他们会尽快在这里回复您。',
    ticketOpened: (id) => `我已为您创建了支持工单（${id}）。我们的团队会跟进。`,
    couldNotComplete: (e) => `无法完成：${e}`,
    foundExcerpt: '以下是我找到的内容：',
    otherLanguage: '暂时没有您所用语言的相关信息；以下是我找到的内容：',
    handoffNotice: '感谢您的留言。我们团队的成员会很快在这里回复您。',
  },
  ar: {
    notFound:
      'عذرًا، لا أعرف الإجابة عن ذلك: لم أجدها في المعلومات المتوفرة لدي. إن أردت، يمكنني توصيلك بأحد أعضاء فريقنا.',
    greeting: 'مرحبًا! كيف يمكنني مساعدتك اليوم؟',
    thanks: 'على الرحب والسعة! هل هناك شيء آخر يمكنني مساعدتك فيه؟',
    humanAsked: 'طلبت من أحد أعضاء فريقنا الانضمام إلى هذه المحادثة. سيرد عليك هنا في أقرب وقت ممكن.',
    ticketOpened: (id) => `فتحت لك تذكرة دعم (${id}). سيتابع فريقنا معك.`,
    couldNotComplete: (e) => `تعذّر إتمام ذلك: ${e}`,
    foundExcerpt: 'إليك ما وجدته:',
    otherLanguage: 'لا تتوفر هذه المعلومات بلغتك بعد؛ إليك ما وجدته:',
    handoffNotice: 'شكرًا على رسالتك. سيرد عليك أحد أعضاء فريقنا هنا قريبًا.',
  },
};

/** The lines in `language` (a conversation's), English when it is null or not supported. */
export function linesFor(language: string | null | undefined): ResponderLines {
  return language && (LANGUAGES as readonly string[]).includes(language)
    ? LINES[language as Language]
    : LINES.en;
}

/** Whether `text` is the responder's "I don't know" in any language (the `declined` outcome). */
export function isNotFoundLine(text: string): boolean {
  const t = text.trim();
  return LANGUAGES.some((l) => LINES[l].notFound === t);
}

/** Greetings and thanks of every supported language, for the responder's small talk. */
export const GREETING =
  /^\s*(hi|hello|hey|good (morning|afternoon|evening)|hiya|howdy|hola|buenos d[ií]as|buenas( tardes| noches)?|bonjour|bonsoir|salut|hallo|guten (morgen|tag|abend)|servus|ol[aá]|bom dia|boa (tarde|noite)|ciao|buongiorno|buonasera|hoi|goedemorgen|goedemiddag|dzie[nń] dobry|cze[sś][cć]|witam|merhaba|selam|こんにちは|こんばんは|おはよう(ございます)?|你好|您好|مرحب[اًا]|السلام عليكم|أهلا)[\s!.,！。、]*$/iu;
export const THANKS =
  /^\s*((thanks|thank you|thx|cheers|gracias|merci|danke|obrigad[oa]|grazie|bedankt|dank je|dank u|dzi[eę]kuj[eę]|te[sş]ekk[uü]rler|sa[gğ]ol)(?!\p{L})|ありがとう|谢谢|謝謝|شكرا|شكرًا).*$/iu;
