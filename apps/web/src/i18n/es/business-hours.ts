import type en from '../en/business-hours.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Horario de atención',
  intro:
    'Cuándo responde una persona de tu equipo. Fuera de este horario la IA responde como siempre; a un cliente derivado a una persona se le dice cuándo volverá alguien. Sin horario de atención, el equipo está siempre disponible.',
  saved: 'Horario de atención guardado.',
  removed: 'Siempre disponible: se quitó el horario de atención.',
  alwaysOpen: '<strong>Siempre disponible.</strong> No hay horario de atención.',
  set: 'Definir el horario de atención',
  form: 'Horario de atención',
  notSaved: 'Aún sin guardar: el equipo está siempre disponible hasta que guardes.',
  timezone: 'Zona horaria',
  message: 'Mensaje fuera del horario de atención',
  messageHint:
    "Se envía cuando un cliente se deriva a una persona fuera de este horario, seguido de cuándo vuelve tu equipo, p. ej. “We're back Monday at 09:00 (Europe/Paris).”",
  defaultMessage: 'Nuestro equipo no está disponible ahora. Deja tu pregunta aquí y te responderemos.',
  save: 'Guardar el horario de atención',
  alwaysOpenButton: 'Siempre disponible',
  removeQuestion: '¿Quitar el horario de atención? El equipo estará entonces siempre disponible.',
  removeConfirm: 'Quitar el horario de atención',
  cancel: 'Cancelar',
  days: {
    mon: 'Lunes',
    tue: 'Martes',
    wed: 'Miércoles',
    thu: 'Jueves',
    fri: 'Viernes',
    sat: 'Sábado',
    sun: 'Domingo',
  },
  week: {
    closed: 'Cerrado',
    range: '{{day}}, franja {{n}}',
    opens: '{{range}}: apertura',
    to: 'a',
    closes: '{{range}}: cierre',
    remove: 'Quitar',
    removeRange: 'Quitar {{range}}',
    add: 'Añadir una franja',
    addOn: 'Añadir una franja el {{day}}',
  },
  holidays: {
    title: 'Festivos',
    none: 'No hay festivos.',
    remove: 'Quitar',
    removeDay: 'Quitar el festivo {{date}}',
    add: 'Añadir un festivo',
    addButton: 'Añadir',
  },
} satisfies Translation<typeof en>;
