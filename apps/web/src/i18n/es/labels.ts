import type en from '../en/labels.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Etiquetas',
  intro:
    'Etiquetas de colores que tu equipo pone en conversaciones y contactos para ordenarlos («facturación», «VIP») y luego filtrar por ellas la bandeja de entrada y los contactos.',
  all: 'Todas las etiquetas',
  allCount: 'Todas las etiquetas ({{count, number}})',
  none: 'Aún no hay etiquetas',
  noneManage: 'Añade una con el formulario: un nombre y un color.',
  noneRead: 'Los propietarios y administradores las añaden.',
  list: 'Etiquetas',
  readOnly:
    'Todo el equipo pone etiquetas en conversaciones y contactos; los propietarios y administradores las modifican.',
  deleteQuestion: '¿Eliminar {{name}}? Se quitará de todas las conversaciones y contactos.',
  chips: 'Etiquetas',
  of: 'Etiquetas de {{name}}',
  noLabels: 'Sin etiquetas.',
  noneYet: 'Aún no hay etiquetas. <a>Añade algunas en la página Etiquetas</a>.',
  form: {
    editTitle: 'Editar {{name}}',
    addTitle: 'Añadir una etiqueta',
    taken: 'Otra etiqueta ya tiene este nombre (sin distinguir mayúsculas). Elige otro o edita esa.',
    name: 'Nombre',
    nameHint: 'Hasta 50 caracteres, único sin distinguir mayúsculas.',
    color: 'Color',
    description: 'Descripción',
    descriptionHint: 'Opcional: cuándo usarla, hasta 200 caracteres.',
    save: 'Guardar cambios',
    add: 'Añadir etiqueta',
    cancel: 'Cancelar',
  },
} satisfies Translation<typeof en>;
