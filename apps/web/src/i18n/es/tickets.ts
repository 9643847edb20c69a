import type en from '../en/tickets.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Tickets',
  intro:
    'Solicitudes que necesitan a una persona: abiertas por el asistente, el widget, la API, desde una conversación de la bandeja de entrada o aquí. Cerrar un ticket es definitivo.',
  status: { open: 'Abierto', pending: 'Pendiente', resolved: 'Resuelto', closed: 'Cerrado' },
  priority: { low: 'Baja', medium: 'Media', high: 'Alta', urgent: 'Urgente' },
  fields: {
    subject: 'Asunto',
    description: 'Descripción',
    status: 'Estado',
    priority: 'Prioridad',
    assignee: 'Asignado a',
    nobody: 'Nadie',
  },
  filters: {
    label: 'Filtros',
    any: 'Cualquiera',
    ofConversation: 'De una conversación (<a>abrirla</a>)',
    clear: 'Quitar los filtros',
  },
  matching: 'Tickets que coinciden',
  all: 'Todos los tickets',
  counted: '{{heading}} ({{count, number}})',
  noMatch: 'Ningún ticket coincide con estos filtros',
  none: 'Aún no hay tickets',
  noMatchText: 'Cambia o quita los filtros.',
  noneText: 'Abre uno con el formulario o desde una conversación de la bandeja de entrada.',
  list: 'Tickets',
  guests:
    'Los invitados pueden ver los tickets; los miembros, administradores y propietarios los abren y modifican.',
  row: {
    opened: 'Abierto el {{date}}',
    resolved: 'resuelto el {{date}}',
    assignedTo: 'asignado a {{name}}',
    assignedToYou: 'asignado a ti',
    unassigned: 'sin asignar',
    conversation: 'Conversación',
    closed: 'Los tickets cerrados son definitivos y no se pueden modificar.',
    close: 'Cerrar ticket',
    closeName: 'Cerrar el ticket {{subject}}',
    closeQuestion: '¿Cerrarlo definitivamente? Un ticket cerrado no se puede modificar ni reabrir.',
    closeConfirm: 'Cerrar definitivamente',
  },
  form: {
    title: 'Abrir un ticket',
    submit: 'Abrir ticket',
  },
} satisfies Translation<typeof en>;
