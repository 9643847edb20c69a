/** Single sign-on: the settings page, its test popup, and "Continue with SSO" on the sign-in page (apps/web/src/features/sso). */
export default {
  title: 'Single sign-on',
  ownerOnly: 'Only the owner of this workspace sets up single sign-on.',
  enterprise: 'Single sign-on (OpenID Connect and SAML) is part of the Enterprise plan.',
  intro:
    "People whose email is in a verified domain sign in through your identity provider and join this workspace with the connection's default role.",
  connections: 'Connections',
  empty: 'No connection yet',
  emptyText: 'Add your identity provider with the form.',
  list: 'SSO connections',
  card: {
    label: 'Connection {{name}}',
    defaultRole: 'default role {{role}}',
    issuer: 'Issuer',
    redirectUri: 'Redirect URI',
    idp: 'IdP',
    entityId: 'Entity ID',
    acsUrl: 'ACS URL',
    domains: 'Domains of {{name}}',
    verified: 'verified',
    verify: 'Verify {{domain}}',
    requireSso: 'Require SSO for members of these domains (you, the owner, keep your password)',
    test: 'Test sign-in',
    delete: 'Delete {{name}}',
    testWorked: 'Test sign-in worked: {{email}}',
    testFailed: 'The test sign-in did not complete.',
  },
  form: {
    title: 'New connection',
    protocol: 'Protocol',
    name: 'Name',
    issuer: 'Issuer',
    clientId: 'Client ID',
    clientSecret: 'Client secret',
    metadataUrl: 'Metadata URL',
    metadataXml: 'or metadata XML',
    domains: 'Email domains (comma separated)',
    defaultRole: 'Default role',
    roles: { member: 'Member', admin: 'Admin', guest: 'Guest' },
    add: 'Add connection',
  },
  testResult: {
    title: 'Single sign-on test',
    ok: 'The identity provider signed in {{email}}. You can close this window.',
    failed: 'The test sign-in did not complete.',
  },
  signIn: {
    continue: 'Continue with SSO',
    form: 'Single sign-on',
    email: 'Work email',
    none: 'No single sign-on is set up for this email domain. Sign in with your password.',
    failed:
      "Single sign-on did not complete. Try again, or ask your workspace's owner to check the connection.",
    reasons: {
      email_invalid:
        'Your identity provider sent an email address that is not a valid address, so no one was signed in. Ask your workspace’s owner to check the email your provider sends.',
      email_domain:
        'Your identity provider sent an email address outside the domains verified for this workspace’s single sign-on, so no one was signed in. Sign in with an address at your company’s verified domain, or ask your workspace’s owner.',
    },
  },
};
