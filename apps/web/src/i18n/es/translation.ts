import type en from '../en/translation.ts';
import type { Translation } from '../types.ts';

export default {
  translate: 'Traducir',
  translating: 'Traduciendo…',
  translateInto: 'Traducir al {{language}}',
  translatedFrom: 'Traducido del {{language}}',
  translation: 'Traducción',
  original: 'Escrito así',
  sendIn: 'Enviar en {{language}}',
  sendInHint:
    'El modelo traduce tu respuesta antes de enviarla: el cliente ve solo la traducción y tú ves las dos. Cada traducción usa un crédito.',
  needsModel:
    'La traducción necesita un modelo remoto: configura AI_PROVIDER en el servidor (docs/configuration.md, «The AI model»).',
} satisfies Translation<typeof en>;
