import type { Notice } from './types.ts';

/** `invitation`: in the app for someone who already has an account (the email carries the link). */
export function invitationNotice(ws: { name: string }, role: string, inviter: string | undefined): Notice {
  return {
    type: 'invitation',
    title: `You are invited to ${ws.name}`,
    body:
      `${inviter ?? 'A member'} invited you to join the workspace ${ws.name} as ${role}. ` +
      'Open the link in the invitation email to join.',
  };
}
