import type { Role } from '../../api.ts';

/** docs/workspaces.md "Members" and "Invitations": the shapes this page reads. */
export type Member = { userId: string; name: string; email: string; role: Role; joinedAt: string };
export type AssignableRole = Exclude<Role, 'owner'>;
export type Invitation = {
  id: string;
  email: string;
  role: AssignableRole;
  expiresAt: string;
  createdAt: string;
};
/** The create answer: the only place the link appears besides the email (only a hash is kept). */
export type CreatedInvitation = Invitation & { inviteUrl: string };

/** What each assignable role may do, in the words of the permission table. */
export const ROLES: Array<{ id: AssignableRole; label: string; what: string }> = [
  { id: 'admin', label: 'Admin', what: 'manages assistants, members, API keys and webhooks' },
  { id: 'member', label: 'Member', what: 'uses the assistants and chats' },
  { id: 'guest', label: 'Guest', what: 'reads assistants, cannot chat' },
];

export const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
