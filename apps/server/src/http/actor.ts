import type { Plan } from '@parley/contract/plans';
import type { Role } from '../db/schema/index.ts';

/**
 * Who is calling, resolved once per request from exactly one credential
 * (docs/api.md "Surfaces and credentials").
 */
export type Actor = (
  | { kind: 'user'; userId: string; via: 'session'; sessionId: string }
  | { kind: 'user'; userId: string; via: 'pat'; tokenId: string }
  | { kind: 'apiKey'; keyId: string; workspaceId: string; scopes: string[] }
) & { prefetched?: Prefetched };

/**
 * The caller's standing in one workspace, read in the same query as the credential (the path's
 * workspace for users, the key's own for API keys), so the tenant guard needs no query of its own
 * (docs/performance.md). `tenant` null: not a member.
 */
export type Prefetched = { workspaceId: string; tenant: Tenant | null };

/** Which credentials a route accepts. */
export type AuthMode =
  | 'none' // public
  | 'session' // cookie only: the session surface
  | 'user' // cookie or personal access token (`/api/workspaces/...`)
  | 'user-or-key' // cookie, personal token, or a workspace API key of that workspace
  | 'key' // workspace API key only (`/api/v1/*`)
  | 'widget'; // the public widget: its assistant, the page's origin and the widget token (features/widget/widget-access.ts)

export type PlanFeature = 'api_v1_write' | 'channels' | 'sla' | 'sso';

/** The workspace a request addresses and the caller's standing in it (the tenant guard's output). */
export type Tenant = {
  workspaceId: string;
  /** null for API keys, which act for the whole workspace. */
  role: Role | null;
  plan: Plan;
  /** The agreed monthly credits of an Enterprise workspace (null: the plan's; credits/allowance.ts). */
  monthlyCredits: number | null;
};

/** Who may do what (docs/api.md "Roles and permissions"): one row per action. */
export const PERMISSIONS = {
  'workspace.view': ['owner', 'admin', 'member', 'guest'],
  'assistants.use': ['owner', 'admin', 'member'],
  'assistants.read': ['owner', 'admin', 'member', 'guest'],
  'assistants.manage': ['owner', 'admin'],
  'members.manage': ['owner', 'admin'],
  'workspace.update': ['owner', 'admin'],
  'apiKeys.manage': ['owner', 'admin'],
  'webhooks.manage': ['owner', 'admin'],
  'inbox.manage': ['owner', 'admin'],
  'contacts.manage': ['owner', 'admin', 'member'],
  'tickets.manage': ['owner', 'admin', 'member'],
  'billing.manage': ['owner'],
  'workspace.delete': ['owner'],
  'workspace.transfer': ['owner'],
  'sso.manage': ['owner'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role | null, permission: Permission): boolean {
  return role !== null && (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** Plan features (docs/api.md "Plans"). */
const PLAN_FEATURES: Record<Plan, readonly PlanFeature[]> = {
  free: [],
  pro: ['api_v1_write', 'channels', 'sla'],
  enterprise: ['api_v1_write', 'channels', 'sla', 'sso'],
};

export function planHas(plan: Plan, feature: PlanFeature): boolean {
  return PLAN_FEATURES[plan].includes(feature);
}
