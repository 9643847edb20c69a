/** Accepting an invitation (apps/web/src/features/invitations). */
export default {
  invitedTitle: 'You are invited to a Parley workspace',
  invitedText:
    'Sign in or create an account with the invited email to join. The invitation was sent to that address; you come back to this page afterwards.',
  signInToJoin: 'Sign in to join',
  createAccount: 'Create an account',
  joinTitle: 'Join a workspace',
  signedInAs: 'You were invited to a workspace on Parley. You are signed in as <strong>{{email}}</strong>.',
  join: 'Join workspace',
  expired:
    'This invitation link no longer works: it has expired (links last 7 days), was revoked, or was already used. Ask the person who invited you to send a new one.',
  otherAddress:
    'This invitation was sent to a different email address, not to {{email}}. Sign out, then sign in or create an account with the address the invitation email reached.',
  signOut: 'Sign out and use another account',
  already: 'You are already a member of this workspace. <a>Go to your workspaces</a>.',
};
