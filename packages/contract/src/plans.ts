/** The plans (docs/billing.md "Plans"), cheapest first. */
export const PLAN_IDS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLAN_IDS)[number];

/** A plan's place in the order: moving to a higher rank is an upgrade, to a lower one a downgrade. */
export const PLAN_RANK: Readonly<Record<Plan, number>> = { free: 0, pro: 1, enterprise: 2 };
