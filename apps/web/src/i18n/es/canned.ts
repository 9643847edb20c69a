import type en from '../en/canned.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Respuestas predefinidas',
  intro:
    'Respuestas que tu equipo escribe una vez y reutiliza: en el cuadro de respuesta de una conversación, escribe / y parte de un atajo o título para insertar una, ya rellenada para esa conversación, y edítala antes de enviarla.',
  search: 'Buscar respuestas predefinidas',
  searchPlaceholder: 'Buscar por atajo o título',
  searchButton: 'Buscar',
  matching: 'Coincidencias con «{{q}}»',
  all: 'Todas las respuestas predefinidas',
  counted: '{{heading}} ({{count, number}})',
  noMatch: 'Ninguna respuesta predefinida coincide',
  none: 'Aún no hay respuestas predefinidas',
  noMatchText: 'Prueba con parte de un atajo o de un título.',
  noneManage: 'Añade una con el formulario: un atajo, un título y el texto.',
  noneRead: 'Los propietarios y administradores las añaden.',
  list: 'Respuestas predefinidas',
  readOnly:
    'Todo el equipo usa las respuestas predefinidas al responder; los propietarios y administradores las modifican.',
  deleteQuestion: '¿Eliminar /{{shortcut}}? Las respuestas ya enviadas se mantienen.',
  form: {
    editTitle: 'Editar /{{shortcut}}',
    addTitle: 'Añadir una respuesta predefinida',
    taken: 'Otra respuesta predefinida ya tiene este atajo. Elige otro o edita esa.',
    shortcut: 'Atajo',
    shortcutHint: 'a-z, 0-9, _ y -, hasta 50. Al responder, escribe / y el atajo para encontrarla.',
    title: 'Título',
    content: 'Contenido',
    contentHint: 'Variables, que se rellenan para cada conversación: {{variables}}.',
    save: 'Guardar cambios',
    add: 'Añadir respuesta predefinida',
    cancel: 'Cancelar',
  },
} satisfies Translation<typeof en>;
