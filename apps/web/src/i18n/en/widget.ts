/**
 * The website widget's settings (apps/web/src/features/widget). The preview's own widget text
 * stays English (docs/decisions/0044-dashboard-languages.md).
 */
export default {
  title: 'Website widget',
  titleOf: 'Website widget of {{name}}',
  managersOnly:
    'Only owners and admins of this workspace can change the website widget or get its embed snippet.',
  saving: 'Saving…',
  saved: 'Saved',
  unsavedChange: 'Unsaved change',
  unsavedChanges: 'Unsaved changes',
  form: {
    title: 'Settings',
    enabled: 'Widget enabled',
    look: 'Look',
    colour: 'Colour',
    colourHex: 'Colour (hex)',
    corner: 'Corner',
    bottomRight: 'Bottom right',
    bottomLeft: 'Bottom left',
    welcome: 'Welcome message',
    welcomePlaceholder: 'Hi! How can I help?',
    welcomeHint: "Empty: the assistant's own welcome message is used.",
    welcomeHintNone:
      "Empty: the assistant's own welcome message is used (it has none, so the chat opens empty).",
    where: 'Where it may appear',
    domains: 'Allowed domains',
    domainsHint:
      'One site per line: its hostname (shop.example.com) or its address (https://shop.example.com:8080 keeps shop.example.com: the scheme and port do not matter). *.example.com allows its subdomains, * allows every site. An empty list allows no site at all.',
    domainsNotSaved: 'Not saved: see the allowed domains above.',
    leadForm: 'Lead form',
    askDetails: 'Ask visitors for their details',
    fields: 'Fields',
    fieldsHint:
      'Comma-separated keys, up to 20: name, email, phone, or your own (a letter, then letters, digits or _), such as company.',
    required: 'Required',
    fieldNames: { name: 'Name', email: 'Email', phone: 'Phone' },
    sessions: 'Sessions and limits',
    timeout: 'End a session after this many idle minutes ({{min, number}} to {{max, number}})',
    quotaUnknown: 'Visitors may send a daily number of messages that depends on the plan.',
    quotaUnlimited: 'On your plan visitors may send any number of widget messages a day.',
    quota_one:
      'On your plan visitors may send {{count, number}} widget message a day to this assistant (UTC day), and each answer uses credits.',
    quota_other:
      'On your plan visitors may send {{count, number}} widget messages a day to this assistant (UTC day), and each answer uses credits.',
    save: 'Save widget settings',
  },
  preview: {
    caption: 'Live preview',
    captionHint: 'as visitors see it; changes show here before you save',
    site: 'Your site',
    off: 'The widget is off: pages show nothing until you tick "Widget enabled" and save.',
  },
  snippet: {
    title: 'Embed on your site',
    text: 'Paste this tag into the pages of your site, before <code>{{tag}}</code>. The widget shows only while it is enabled, and only on the allowed domains.',
    copy: 'Copy snippet',
    notEnabled: 'The widget is not enabled yet: pages with this tag show nothing.',
    noDomain: 'No domain is allowed yet: add your site’s hostname above, or no page can show the widget.',
  },
  languages: {
    title: 'Languages',
    intro:
      "The widget speaks the visitor's language when it is one of {{n, number}} supported ones (it follows the visitor's browser), and the workspace's default language otherwise. Right-to-left languages are mirrored.",
    defaultLanguage: 'Default language of the workspace',
    saveDefault: 'Save default language',
    ownTitle: 'Your own texts',
    ownHint:
      'Replace any text of the widget in any language; an empty field keeps the built-in text shown in it. Words in braces, such as {name}, are filled in by the widget.',
    language: 'Language',
    changed_one: '{{language}} – {{count, number}} changed',
    changed_other: '{{language}} – {{count, number}} changed',
    loading: 'Loading the built-in texts…',
    notSaved: 'Not saved: see the texts marked above.',
    save: 'Save texts',
  },
};
