import type en from '../en/assistants.ts';
import type { Translation } from '../types.ts';

export default {
  list: {
    title: 'Asistentes',
    new: 'Nuevo asistente',
    none: 'Aún no hay asistentes',
    noneManage: 'Crea un asistente y después añade el conocimiento con el que responderá.',
    noneRead: 'Un propietario o administrador de este espacio de trabajo puede crear uno.',
    visibleTo: 'Visible para: {{visibility}}',
    chat: 'Chat',
    knowledge: 'Conocimiento',
    widget: 'Widget',
    edit: 'Editar',
  },
  visibility: { workspace: 'el espacio de trabajo', private: 'privado', public: 'público' },
  edit: {
    settingsTitle: 'Configuración del asistente',
    notAllowed:
      'Solo los propietarios y administradores de este espacio de trabajo pueden crear o editar asistentes.',
    editTitle: 'Editar {{name}}',
    newTitle: 'Nuevo asistente',
    name: 'Nombre',
    instructions: 'Instrucciones',
    instructionsPlaceholder: 'Respondes preguntas sobre nuestros hervidores, con amabilidad y brevedad.',
    visibility: 'Quién puede usarlo',
    visibilityWorkspace: 'Todo el espacio de trabajo',
    visibilityPrivate: 'Solo las personas a las que dé acceso',
    visibilityPublic: 'Público (heredado)',
    temperature: 'Temperatura (de 0 a 2)',
    maxTokens: 'Respuesta más larga (tokens)',
    welcome: 'Mensaje de bienvenida',
    minConfidence: 'Confianza mínima (de 0 a 1; 0 = desactivada)',
    minConfidenceHelp:
      'Una respuesta que el conocimiento respalda por debajo de este valor no se envía: se pide a una persona que responda, y esta ve el borrador de la IA en la bandeja de entrada para enviarlo, editarlo o reemplazarlo. Las respuestas llegan entonces completas en lugar de palabra a palabra.',
    save: 'Guardar cambios',
    create: 'Crear asistente',
    cancel: 'Cancelar',
  },
  nav: {
    label: 'Asistente',
    settings: 'Configuración',
    knowledge: 'Conocimiento',
    chat: 'Chat',
    guidance: 'Directrices',
    answers: 'Respuestas seleccionadas',
    tests: 'Pruebas',
    suggestions: 'Sugerencias',
    widget: 'Widget del sitio web',
    sms: 'SMS',
  },
  model: {
    offline:
      'Las respuestas vienen del modelo sin conexión integrado, que cita tu conocimiento en lugar de redactar respuestas propias. Para usar un modelo real, configura AI_PROVIDER en el servidor (docs/configuration.md, “The AI model”).',
    openai:
      'Las respuestas vienen del modelo compatible con OpenAI configurado en el servidor (AI_PROVIDER=openai).',
    anthropic:
      'Las respuestas vienen del modelo de Anthropic configurado en el servidor (AI_PROVIDER=anthropic).',
  },
} satisfies Translation<typeof en>;
