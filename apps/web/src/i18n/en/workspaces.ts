/** Creating a workspace and its overview (apps/web/src/features/workspaces). */
export default {
  create: {
    title: 'Create a workspace',
    intro: 'A workspace holds your assistants, their knowledge and your team. You can create more later.',
    name: 'Workspace name',
    placeholder: 'Acme Support',
    button: 'Create workspace',
  },
  overview: {
    workspace: 'Workspace',
    planRole: 'Plan: {{plan}} · Your role: {{role}}',
    assistants: 'Assistants',
    assistantsIntro: 'Assistants answer your customers from the knowledge you give them.',
    seeAssistants: 'See assistants',
    createAssistant: 'Create an assistant',
  },
};
