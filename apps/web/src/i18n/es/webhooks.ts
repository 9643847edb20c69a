import type en from '../en/webhooks.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Webhooks',
  managersOnly:
    'Solo los propietarios y administradores de este espacio de trabajo pueden ver y gestionar sus webhooks.',
  lede: 'Parley envía por POST un mensaje JSON firmado a tu endpoint HTTPS cuando ocurre algo en este espacio de trabajo, reintenta los fallos y registra cada entrega.',
  yours: 'Tus webhooks',
  none: 'Aún no hay webhooks',
  noneText: 'Añade la dirección HTTPS de tu endpoint y elige los eventos que debe recibir.',
  list: 'Webhooks',
  active: 'activo',
  inactive: 'inactivo',
  inactiveHint:
    'No recibe nada mientras está inactivo. Ábrelo para ver por qué fallaron las entregas y vuelve a activarlo.',
  created: 'Creado el {{date}}',
  allEvents: 'Todos los eventos',
  secret: {
    title: 'Webhook creado: copia ahora su secreto de firma',
    text: 'Es la única vez que Parley muestra el secreto de <strong>{{url}}</strong>. No lo volverás a ver. Tu receptor lo usa para comprobar la cabecera <code>X-Parley-Signature</code> de cada solicitud.',
    label: 'Secreto de firma: ',
    copy: 'Copiar el secreto',
    open: 'Abrir el webhook',
    done: 'Ya lo guardé',
  },
  form: {
    title: 'Añadir un webhook',
    url: 'URL del endpoint',
    urlHint: 'Debe empezar por https:// y llegar a una dirección pública.',
    advanced: 'Opciones avanzadas',
    secret: 'Tu propio secreto de firma (opcional)',
    secretHint: 'De 16 a 256 caracteres. Si lo dejas vacío, Parley genera un secreto whsec_.',
    add: 'Añadir webhook',
    chooseEvents: 'Elige al menos un evento o «Todos los eventos».',
  },
  picker: {
    legend: 'Eventos',
    all: 'Todos los eventos',
    allHint: '(incluidos los tipos que se añadan en versiones futuras)',
  },
  events: {
    message: {
      created: 'se guarda un mensaje (del usuario, de la IA o de un agente)',
      updated: 'se edita un mensaje o cambian sus detalles (el estado de entrega de un SMS)',
    },
    conversation: {
      created: 'empieza una conversación',
      ended: 'se cierra una conversación o termina una sesión del widget',
      updated: 'una persona toma una conversación, se devuelve a la IA, se asigna o se reabre',
      rated:
        'un cliente valora una conversación después de que lo atendiera una persona (encuesta de satisfacción)',
    },
    contact: {
      created: 'se crea un contacto (incluidos los del formulario de contacto)',
      updated: 'cambia un contacto',
    },
    ticket: {
      created: 'se crea un ticket',
      updated: 'cambia un ticket',
      resolved: 'se resuelve un ticket',
    },
    assistant: { updated: 'cambia la configuración de un asistente (o de su widget)' },
    member: {
      joined: 'alguien se une al espacio de trabajo',
      left: 'alguien deja el espacio de trabajo',
    },
    workspace: {
      plan_changed:
        'cambia el plan del espacio de trabajo (mejora, cambio a un plan inferior, fin de la prueba)',
    },
    sla: {
      breached:
        'se agota un objetivo de SLA de una conversación (primera respuesta, siguiente respuesta o resolución)',
    },
  },
  detail: {
    title: 'Webhook',
    meta: '{{events}} · creado el {{date}}',
    inactive:
      '<strong>Este webhook está desactivado y no recibe eventos nuevos.</strong> Puede que alguien lo haya desactivado, o que Parley lo hiciera por sí solo tras más de 50 intentos fallidos seguidos en 7 días (entonces se avisó por correo a los propietarios y administradores). Revisa las entregas fallidas de abajo y corrige tu endpoint; después vuelve a activarlo: eso también pone a cero el recuento de fallos.',
    turnOn: 'Volver a activarlo',
    settings: 'Configuración',
    active: 'Activo (entrega los eventos nuevos)',
    save: 'Guardar cambios',
    saved: 'Guardado',
    deleteTitle: 'Eliminar',
    delete: 'Eliminar webhook',
    deleteQuestion:
      '¿Eliminar este webhook? Parley deja de enviar a <url>{{url}}</url> de inmediato y su registro de entregas se elimina con él. No se puede deshacer.',
    deleteYes: 'Sí, eliminarlo',
    cancel: 'Cancelar',
  },
  deliveries: {
    title: 'Entregas',
    refresh: 'Actualizar',
    none: 'Aún no hay entregas',
    noneText: 'Aquí aparece una entrega cuando ocurre uno de los eventos del webhook: {{events}}.',
    anyEvent: 'cualquier evento de este espacio de trabajo',
    loadMore: 'Cargar más',
    status: { pending: 'pendiente', success: 'entregada', failed: 'fallida' },
    noResponse: 'sin respuesta',
    http: 'HTTP {{code}}',
    attempts_one: '{{count, number}} intento',
    attempts_other: '{{count, number}} intentos',
    details: 'Detalles',
    eventId: 'Id. del evento',
    eventIdHint: '(la cabecera webhook-id; la misma en cada reintento)',
    deliveryId: 'Id. de la entrega',
    lastAttempt: 'Último intento',
    noResponseWhy: 'sin respuesta (rechazada, inalcanzable, sin respuesta a tiempo o aún sin intentar)',
    answered: 'respondió {{code}}',
    answeredIn: 'respondió {{code}} en {{ms, number}} ms',
    underWay: 'Los intentos están en curso; esto se actualiza solo.',
    retry: 'Reintentar',
    retrying: 'Se está enviando de nuevo',
    turnOnToRetry: 'Vuelve a activar el webhook para reintentar esta entrega.',
  },
} satisfies Translation<typeof en>;
