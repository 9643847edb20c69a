/** The billing page and the plans' words (apps/web/src/features/billing). */
export default {
  title: 'Billing',
  checkoutDone:
    'Thank you. Your payment is being confirmed: the new plan appears here as soon as Stripe tells us.',
  checkoutCancelled: 'Checkout was cancelled; nothing changed.',
  readonly:
    'Only the workspace owner changes the plan, payment methods and invoices. You can see the plan and the credits.',
  plans: {
    free: { name: 'Free', credits: '50 credits a month', notes: '100 contacts, 50 tickets' },
    pro: {
      name: 'Pro',
      credits: '1,200 credits a month',
      notes: '5,000 contacts, 1,000 tickets, SMS and other channels, API write access',
    },
    enterprise: {
      name: 'Enterprise',
      credits: 'Credits as agreed',
      notes: 'Unlimited contacts and tickets, SSO, dedicated support',
    },
  },
  trialLabel: '{{plan}} (trial)',
  price: { custom: 'Custom', free: 'Free', monthly: '{{amount}} a month' },
  current: {
    title: 'Current plan',
    daysLeft_one: '{{count}} day left in your Pro trial (ends {{date}}).',
    daysLeft_other: '{{count}} days left in your Pro trial (ends {{date}}).',
    upgradeYou: 'Upgrade before then to keep Pro; otherwise the workspace moves to Free.',
    upgradeOwner:
      'The workspace owner can upgrade before then to keep Pro; otherwise the workspace moves to Free.',
    upgradeNobody: 'Then the workspace moves to Free, unless the operator changes its plan.',
    cancelled:
      'Cancelled: {{plan}} stays until {{date}}, then the workspace moves to Free. Data is deleted 30 days after cancelling.',
    moves: 'Moves to {{plan}} on {{date}}.',
    status: 'Billing status: {{status}}.',
    contacts: 'Contacts',
    tickets: 'Tickets',
    usage: '{{used}} of {{limit}}',
    unlimited: 'unlimited',
  },
  meter: {
    title: 'Credits this period',
    used: '{{used}} <muted>of {{limit}} used</muted>',
    label: 'Credits used',
    resets: 'Resets on {{date}}; unused credits do not roll over. Every AI reply costs one credit.',
    full: 'All credits are used: assistants stop answering until {{date}} or until you upgrade.',
    high: "{{percent}}% of this period's credits are used.",
  },
  invoices: {
    title: 'Invoices',
    elsewhere: 'Invoices are emailed to you and downloadable from "Manage billing".',
    none: 'No invoices yet.',
    date: 'Date',
    number: 'Number',
    amount: 'Amount',
    status: 'Status',
    download: 'Download',
    view: 'View',
  },
  operator: {
    title: 'Billing is managed by the operator',
    text: 'Online payment is not set up on this server, so the plan cannot be changed here. The person who runs Parley changes it with this command:',
    copy: 'Copy command',
    id: 'This workspace\'s id is <code>{{ws}}</code>. Operators: see docs/billing.md, "Changing a plan by hand".',
  },
  choices: {
    title: 'Plans',
    current: 'Current',
    opening: 'Opening checkout…',
    upgrade: 'Upgrade to {{plan}}',
    move: 'Move to {{plan}}',
    moveQuestion: 'Move to {{plan}} on {{date}}?',
    moveConfirm: 'Yes, move to {{plan}}',
    cancel: 'Cancel {{plan}}',
    cancelQuestion: 'Cancel? {{plan}} stays until {{date}}; data is deleted 30 days after cancelling.',
    cancelConfirm: 'Yes, cancel',
  },
  portal: {
    title: 'Payment methods',
    text: 'Cards, link-based and mobile wallets, billing details and past invoices are managed on Stripe.',
    opening: 'Opening…',
    manage: 'Manage billing',
  },
};
