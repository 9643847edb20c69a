import type en from '../en/sla.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Políticas de SLA',
  intro:
    'Con qué rapidez responde una persona y en cuánto tiempo se resuelve una conversación, en minutos. Cuando una conversación pasa a una persona, la primera política de esta lista que se le aplica pone en marcha sus relojes.',
  all: 'Todas las políticas',
  allCount: 'Todas las políticas ({{count, number}})',
  empty: 'Aún no hay políticas de SLA',
  emptyManage:
    'Añade una con el formulario: un nombre, al menos un objetivo y, si no es para todas las conversaciones, los canales o etiquetas a los que se aplica.',
  emptyRead: 'Los propietarios y administradores las añaden en los planes Pro y Enterprise.',
  list: 'Políticas de SLA, gana la primera que se aplica',
  readOnly:
    'Todo el equipo ve las políticas y sus relojes; los propietarios y administradores las modifican.',
  upgrade: {
    title: 'Las políticas de SLA necesitan el plan Pro o Enterprise',
    text: 'Este espacio de trabajo tiene el plan Free: puede leer sus políticas, pero no añadirlas ni cambiarlas, y no corre ningún reloj. El propietario del espacio de trabajo puede cambiar de plan; el cambio es inmediato.',
    owner: 'Cambiar de plan en la página de Facturación',
    other: 'Ver los planes en la página de Facturación',
  },
  policy: {
    priority: '· prioridad {{priority, number}}',
    businessHoursOnly: 'Solo en horario de atención',
    aroundTheClock: 'Las 24 horas',
    appliesTo: 'Se aplica a: ',
    every: 'todas las conversaciones',
    with: ', con ',
    conversationsWith: 'conversaciones con ',
    anyOf: 'cualquiera de ',
    labels: 'Etiquetas de {{name}}',
    deletedLabel: 'Etiqueta eliminada',
    deleteQuestion: '¿Eliminar {{name}}? Las conversaciones para las que se eligió se quedan sin política.',
  },
  targets: {
    firstResponseMinutes: 'Primera respuesta',
    nextResponseMinutes: 'Siguiente respuesta',
    resolutionMinutes: 'Resolución',
  },
  target: '{{target}} {{span}}',
  span: { d: '{{count, number}} d', h: '{{count, number}} h', min: '{{count, number}} min' },
  form: {
    editTitle: 'Editar {{name}}',
    addTitle: 'Añadir una política',
    name: 'Nombre',
    nameHint: 'Hasta 100 caracteres.',
    targetsHint:
      'Objetivos: fija al menos uno, de hasta 30 días cada uno; deja los demás vacíos. Primera respuesta: la primera respuesta de una persona tras el traspaso; siguiente respuesta: cada respuesta después de que el cliente vuelva a escribir; resolución: cerrarla.',
    unit: '{{target}}: unidad',
    units: { min: 'minutos', h: 'horas', d: 'días' },
    notANumber: 'Escribe un número o déjalo vacío para no fijar objetivo.',
    businessHoursOnly: 'Contar solo el horario de atención',
    channels: 'Canales',
    channelsHint: 'Ninguno marcado: todos los canales.',
    labels: 'Etiquetas',
    noLabels:
      'El espacio de trabajo aún no tiene etiquetas: la política se aplica tenga las etiquetas que tenga la conversación.',
    labelsHint: 'Ninguna marcada: cualquier etiqueta. Marcadas: conversaciones con al menos una de ellas.',
    priority: 'Prioridad',
    priorityHint:
      'De 1 a 100. Si se aplican varias políticas, gana el número más bajo; en caso de empate, la política más antigua.',
    save: 'Guardar cambios',
    add: 'Añadir política',
    cancel: 'Cancelar',
  },
  clocks: {
    kinds: {
      first_response: 'Primera respuesta',
      next_response: 'Siguiente respuesta',
      resolution: 'Resolución',
    },
    in: 'en {{span}}',
    overdue: 'con {{span}} de retraso',
    due: '{{kind}} {{left}}',
    breached: 'SLA incumplido',
    title: 'SLA',
    policy: 'Política: ',
    policyDeleted: 'una política ya eliminada',
    dueTimes: 'Vencimientos',
    dueAt: 'vence el <time>{{date}}</time> · ',
    idle: {
      first_response: 'Detenido (cumplido o parado)',
      next_response: 'Detenido (empieza cuando el cliente escribe después de una respuesta)',
      resolution: 'Detenido (cumplido o parado)',
    },
    breaches: 'Incumplimientos',
    none: 'Ninguno.',
    breachesList: 'Incumplimientos del SLA',
    missed: '{{kind}} incumplida: vencía el <time>{{date}}</time>',
  },
} satisfies Translation<typeof en>;
