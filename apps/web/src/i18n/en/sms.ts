/** The SMS channel: the assistant's SMS page, its sessions and message volume (apps/web/src/features/sms). */
export default {
  title: 'SMS',
  titleFor: 'SMS for {{name}}',
  intro:
    'Customers text your number; the assistant answers by SMS through your own provider account (bring your own account: messages are billed by the provider to you, and each AI reply uses one credit here).',
  membersOnly:
    'Only owners and admins of this workspace can see and change the SMS channel: it holds the provider account’s credentials. SMS conversations appear in the inbox for everyone.',
  upgrade: {
    title: 'SMS needs the Pro or Enterprise plan',
    text: 'This workspace is on the {{plan}} plan, which does not include channels. To answer text messages with this assistant, the workspace’s owner upgrades it to Pro: the upgrade takes effect at once, and this page then lets you connect your SMS provider account and number.',
    owner: 'Upgrade on the Billing page',
    other: 'See the plans on the Billing page',
    refused: 'SMS needs the Pro or Enterprise plan. The workspace’s owner can upgrade it.',
  },
  form: {
    titleNew: 'Connect an SMS number',
    titleSaved: 'Provider account and number',
    newHint:
      'From your SMS provider’s console: the account SID and auth token (Account info), and a number of that account that can send SMS.',
    enabled: 'SMS enabled',
    enabledHint:
      'Off: messages to the number are acknowledged to the provider but neither stored nor answered.',
    credentials: 'Credentials',
    accountSid: 'Account SID',
    authToken: 'Auth token',
    authTokenNew: 'At least 32 characters. Stored encrypted and never shown again.',
    authTokenSaved: 'Saved (stored encrypted and never shown). Leave empty to keep it, or enter a new one.',
    authTokenPlaceholder: '•••••••• saved',
    savedBadge: 'Saved',
    phoneNumber: 'Phone number',
    phoneNumberHint:
      'In international (E.164) form: + then the country code, such as +15550102000. One number per assistant.',
    test: 'Test',
    testing: 'Testing…',
    testHint:
      'Asks the provider whether this account holds this number, before or after saving. Nothing is saved.',
    testHintSaved:
      'Asks the provider whether this account holds this number, before or after saving (with the saved token when the field is empty). Nothing is saved.',
    replies: 'Replies and sessions',
    maxMessageLength: 'Longest reply, in characters ({{min, number}} to {{max, number}})',
    maxMessageLengthHint: 'Longer answers are cut at a word boundary. 160 characters is one standard SMS.',
    sessionTimeout: 'End a session after this many silent minutes ({{min, number}} to {{max, number}})',
    sessionTimeoutHint: 'A later message starts a new conversation.',
    sessionTimeoutHintSaved:
      'A later message starts a new conversation. Changing it needs the auth token entered again.',
    contactMatching: 'Match senders to existing contacts by phone number',
    autoCreate: 'Create a contact for each unknown sender',
    save: 'Save SMS settings',
    create: 'Connect number',
    saving: 'Saving…',
    saved: 'Saved',
    unsaved: 'Unsaved changes',
  },
  check: {
    accountSid: 'Enter the account SID from the provider’s console.',
    accountSidForm:
      'The account SID is AC followed by 32 letters or digits (34 characters in all); this one has {{count, number}}.',
    authToken: 'Enter the auth token.',
    authTokenShort: 'The auth token has at least 32 characters; this one has {{count, number}}.',
    authTokenChars: 'The auth token is printable characters without spaces, at most 256.',
    authTokenForTimeout:
      'Enter the auth token again to change the session timeout: that setting is saved together with the credentials.',
    authTokenForTest:
      'Enter the auth token of this account SID to test: the saved one belongs to the saved SID.',
    phoneNumber: 'Enter the phone number that receives the messages.',
    phoneNumberForm:
      'The phone number must be in international (E.164) form: + then the country code and 7 to 15 digits in all, such as +15550102000.',
    phoneNumberPlus: 'The phone number must start with + and the country code, such as +15550102000 (E.164).',
    maxMessageLength:
      'The longest reply is a whole number of characters from {{min, number}} to {{max, number}}.',
    sessionTimeout:
      'The session timeout is a whole number of minutes from {{min, number}} to {{max, number}} (a day).',
    taken: 'Another assistant already uses this number.',
    numberConnected:
      'This phone number is already connected to another assistant. Disconnect it there first, or use another number.',
    reload: 'This assistant already has an SMS configuration: reload the page to see it.',
    invalid: 'Some fields are not valid: see the messages at each field.',
  },
  result: {
    notValid:
      'Not valid. {{reason}}. Check the account SID, the auth token and the number in the provider’s console.',
    notConfirmed: 'The provider did not confirm these credentials and this number',
    yes: 'yes',
    no: 'no',
    capabilities: 'SMS {{sms}}, MMS {{mms}}, voice {{voice}}',
    valid: 'Valid: the provider account holds {{number}}. It can receive and send: {{capabilities}}.',
    noSms:
      'The credentials are valid and the account holds {{number}}, but the number cannot send SMS ({{capabilities}}). Enable SMS for it at the provider or choose another number.',
  },
  webhook: {
    title: 'Webhook URL',
    text: 'In the provider’s console, open the number and paste this address as the webhook for <em>a message comes in</em>, method HTTP POST. Parley accepts only requests the provider signs with this account’s auth token.',
    label: 'Webhook URL',
    copy: 'Copy webhook URL',
    off: 'SMS is switched off: messages to the number are not answered until you enable it.',
  },
  remove: {
    button: 'Disconnect SMS',
    question:
      'Disconnect SMS from this assistant? The credentials are deleted and messages to the number are no longer answered. Past conversations stay in the inbox.',
    confirm: 'Disconnect',
  },
  sessions: {
    title: 'Sessions',
    titleCount: 'Sessions ({{count, number}})',
    refresh: 'Refresh',
    refreshing: 'Refreshing…',
    empty: 'No SMS sessions yet',
    emptyText: 'Text the number from a phone: the conversation shows here and in the inbox.',
    list: 'SMS sessions',
    session: 'Session with {{number}}',
    active: 'Active',
    ended: 'Ended',
    meta_one: '{{count, number}} message · started {{started}} · last message {{last}}',
    meta_other: '{{count, number}} messages · started {{started}} · last message {{last}}',
    open: 'Open the conversation in the inbox',
  },
  analytics: {
    title: 'Messages',
    totals: {
      messages: 'Messages',
      received: 'Received',
      sent: 'Sent',
      customers: 'Customers',
      activeSessions: 'Active sessions',
    },
    loadingChart: 'Loading the chart…',
    hint: 'Received: from customers. Sent: the assistant’s and agents’ replies. Days are UTC, up to today.',
    chart: 'Messages per day',
    none: 'No messages in the last {{period}}.',
    summary: 'Messages per day over the last {{period}}; the busiest day was {{day}} with {{count, number}}.',
  },
};
