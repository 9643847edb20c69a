/**
 * The English catalogs' types, one line per feature namespace: they type `t()` keys everywhere
 * (docs/languages.md "Dashboard"). The catalogs themselves load without any list
 * (apps/web/src/i18n/index.ts); adding a namespace is one line here.
 */
export type Resources = {
  shell: typeof import('./en/shell.ts').default;
  account: typeof import('./en/account.ts').default;
  auth: typeof import('./en/auth.ts').default;
  workspaces: typeof import('./en/workspaces.ts').default;
  credits: typeof import('./en/credits.ts').default;
  members: typeof import('./en/members.ts').default;
  invitations: typeof import('./en/invitations.ts').default;
  billing: typeof import('./en/billing.ts').default;
  'api-keys': typeof import('./en/api-keys.ts').default;
  assistants: typeof import('./en/assistants.ts').default;
  email: typeof import('./en/email.ts').default;
  notifications: typeof import('./en/notifications.ts').default;
  canned: typeof import('./en/canned.ts').default;
  labels: typeof import('./en/labels.ts').default;
  'business-hours': typeof import('./en/business-hours.ts').default;
  contacts: typeof import('./en/contacts.ts').default;
  chat: typeof import('./en/chat.ts').default;
  inbox: typeof import('./en/inbox.ts').default;
  knowledge: typeof import('./en/knowledge.ts').default;
  steering: typeof import('./en/steering.ts').default;
  analytics: typeof import('./en/analytics.ts').default;
  sms: typeof import('./en/sms.ts').default;
  tickets: typeof import('./en/tickets.ts').default;
  webhooks: typeof import('./en/webhooks.ts').default;
  widget: typeof import('./en/widget.ts').default;
  sla: typeof import('./en/sla.ts').default;
  sso: typeof import('./en/sso.ts').default;
  translation: typeof import('./en/translation.ts').default;
};

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'shell';
    resources: Resources;
  }
}
