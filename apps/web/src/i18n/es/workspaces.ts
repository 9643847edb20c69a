import type en from '../en/workspaces.ts';
import type { Translation } from '../types.ts';

export default {
  create: {
    title: 'Crear un espacio de trabajo',
    intro:
      'Un espacio de trabajo reúne tus asistentes, su conocimiento y tu equipo. Puedes crear más después.',
    name: 'Nombre del espacio de trabajo',
    placeholder: 'Soporte de Acme',
    button: 'Crear espacio de trabajo',
  },
  overview: {
    workspace: 'Espacio de trabajo',
    planRole: 'Plan: {{plan}} · Tu rol: {{role}}',
    assistants: 'Asistentes',
    assistantsIntro: 'Los asistentes responden a tus clientes con el conocimiento que les das.',
    seeAssistants: 'Ver asistentes',
    createAssistant: 'Crear un asistente',
  },
} satisfies Translation<typeof en>;
