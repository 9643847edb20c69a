/** Translation in the inbox (apps/web/src/features/inbox/TranslateMessage.tsx and ReplyTranslate.tsx). */
export default {
  translate: 'Translate',
  translating: 'Translating…',
  translateInto: 'Translate into {{language}}',
  translatedFrom: 'Translated from {{language}}',
  translation: 'Translation',
  original: 'Written as',
  sendIn: 'Send in {{language}}',
  sendInHint:
    'The model translates your reply before it is sent: the customer sees only the translation, and you see both. Each translation uses one credit.',
  needsModel:
    'Translation needs a remote model: set AI_PROVIDER on the server (docs/configuration.md, “The AI model”).',
};
