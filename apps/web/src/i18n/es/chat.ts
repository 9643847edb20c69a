import type en from '../en/chat.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Chatear con {{name}}',
  theAssistant: 'el asistente',
  conversations: 'Conversaciones',
  newConversation: 'Nueva conversación',
  none: 'Aún no hay conversaciones.',
  untitled: 'Sin título',
  more: 'Cargar más',
  ask: 'Haz una pregunta',
  askText: 'El asistente responde con su conocimiento y cita sus fuentes.',
  messages: 'Mensajes',
  guests: 'Los invitados pueden ver los asistentes, pero no chatear con ellos.',
  inProgress: 'Respuesta en curso',
  yourMessage: 'Tu mensaje',
  send: 'Enviar',
  who: { user: 'Tú', assistant: 'Asistente', agent: 'Agente', system: 'Sistema' },
  toolSteps: 'Pasos de herramientas',
  sources: 'Fuentes',
} satisfies Translation<typeof en>;
