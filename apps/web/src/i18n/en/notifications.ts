/** The bell and the notification settings (apps/web/src/features/notifications). */
export default {
  settings: {
    title: 'Notification settings',
    intro:
      'Choose what you hear about, in the app (the bell) and by email. Credit, webhook and trial notices go to owners and admins of the workspace.',
    unavailable: 'Notification settings are not available on this server yet.',
    notification: 'Notification',
    inApp: 'In the app',
    email: 'By email',
    switchInApp: '{{name}}: in the app',
    switchEmail: '{{name}}: by email',
  },
  /** Keyed by apps/web/src/features/notifications/types.ts `KIND_KEYS`. */
  kinds: {
    creditsWarning: 'Credits at 80%',
    creditsExhausted: 'Credits used up',
    webhookDisabled: 'A webhook was turned off after failing',
    ingestionFailed: 'A knowledge source failed to index',
    invitation: 'An invitation to a workspace',
    trialEnding: 'The trial ends in 3 days',
    trialEnded: 'The trial ended',
    paymentFailed: 'A payment failed',
    slaBreached: 'An SLA target ran out',
    conversationAssigned: 'A conversation was assigned to you',
  },
  bell: {
    label: 'Notifications',
    unread: 'Notifications, {{count}} unread',
    title: 'Notifications',
    markAll: 'Mark all read',
    nothing: 'Nothing yet.',
    unreadMark: 'Unread. ',
    markReadOf: 'Mark read: {{title}}',
    markRead: 'Mark read',
    settings: 'Notification settings',
  },
  ago: {
    justNow: 'just now',
    minutes: '{{count}} min ago',
    hours: '{{count}} h ago',
  },
};
