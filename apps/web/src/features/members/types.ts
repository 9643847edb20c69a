import type { Role } from '../../api.ts';

/** docs/workspaces.md "Members" and "Invitations": the shapes this page reads. */
/** The server's types (packages/contract/src/api-types.ts); the create answer carries the link once. */
export type { CreatedInvitation, Invitation, Member } from '@parley/contract/api-types';
export type AssignableRole = Exclude<Role, 'owner'>;

/** What each assignable role may do, in the words of the permission table. */
export const ROLES: Array<{ id: AssignableRole; label: string; what: string }> = [
  { id: 'admin', label: 'Admin', what: 'manages assistants, members, API keys and webhooks' },
  { id: 'member', label: 'Member', what: 'uses the assistants and chats' },
  { id: 'guest', label: 'Guest', what: 'reads assistants, cannot chat' },
];

export { formatDate } from '../../shell/dates.ts';
