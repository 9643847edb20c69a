import type { Role } from '../../api.ts';

/** docs/workspaces.md "Members" and "Invitations": the shapes this page reads. */
/** The server's types (packages/contract/src/api-types.ts); the create answer carries the link once. */
export type { CreatedInvitation, Invitation, Member } from '@parley/contract/api-types';
export type AssignableRole = Exclude<Role, 'owner'>;

/**
 * The assignable roles; what each may do, in the words of the permission table, is in the members
 * catalog (`roles.<id>.label` and `.what`, apps/web/src/i18n/en/members.ts).
 */
export const ROLES: AssignableRole[] = ['admin', 'member', 'guest'];

export { formatDate } from '../../shell/dates.ts';
