import type en from '../en/notifications.ts';
import type { Translation } from '../types.ts';

export default {
  settings: {
    title: 'Configuración de notificaciones',
    intro:
      'Elige de qué te enteras, en la aplicación (la campana) y por correo. Los avisos de créditos, webhooks y prueba van a los propietarios y administradores del espacio de trabajo.',
    unavailable: 'La configuración de notificaciones aún no está disponible en este servidor.',
    notification: 'Notificación',
    inApp: 'En la aplicación',
    email: 'Por correo',
    switchInApp: '{{name}}: en la aplicación',
    switchEmail: '{{name}}: por correo',
  },
  kinds: {
    creditsWarning: 'Créditos al 80 %',
    creditsExhausted: 'Créditos agotados',
    webhookDisabled: 'Se desactivó un webhook tras fallar',
    ingestionFailed: 'No se pudo indexar una fuente de conocimiento',
    invitation: 'Una invitación a un espacio de trabajo',
    trialEnding: 'La prueba termina en 3 días',
    trialEnded: 'La prueba terminó',
    paymentFailed: 'Falló un pago',
    slaBreached: 'Se agotó un objetivo de SLA',
    conversationAssigned: 'Se te asignó una conversación',
  },
  bell: {
    label: 'Notificaciones',
    unread: 'Notificaciones, {{count}} sin leer',
    title: 'Notificaciones',
    markAll: 'Marcar todo como leído',
    nothing: 'Nada por ahora.',
    unreadMark: 'Sin leer. ',
    markReadOf: 'Marcar como leída: {{title}}',
    markRead: 'Marcar como leída',
    settings: 'Configuración de notificaciones',
  },
  ago: {
    justNow: 'ahora mismo',
    minutes: 'hace {{count}} min',
    hours: 'hace {{count}} h',
  },
} satisfies Translation<typeof en>;
