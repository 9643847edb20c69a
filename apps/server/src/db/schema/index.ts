export * from './accounts.ts';
export * from './assistants.ts';
export * from './events.ts';
export * from './knowledge.ts';
export * from './notifications.ts';
export * from './webhooks.ts';
export * from './widget.ts';
export * from './workspaces.ts';
