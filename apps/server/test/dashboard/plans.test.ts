import { describe, expect, it } from 'vitest';
import { inTrial, PLANS, planLabel, priceText } from '../../../web/src/features/billing/plans.ts';

/** The plans as the dashboard writes them (apps/web/src/features/billing/plans.ts; docs/dashboard.md "Billing"). */

const plan = (id: string) => PLANS.find((p) => p.id === id)!;

describe('plans in the dashboard', () => {
  it('writes a price with its currency, as the locale writes money', () => {
    expect(priceText(plan('pro'), 'en-US')).toBe('$29 a month');
    expect(priceText(plan('pro'), 'en-GB')).toBe('US$29 a month');
    expect(priceText(plan('free'), 'en-US')).toBe('Free');
    expect(priceText(plan('enterprise'), 'en-US')).toBe('Custom');
  });

  it('names a plan the same way everywhere, with the trial', () => {
    expect(planLabel('pro', true)).toBe('Pro (trial)');
    expect(planLabel('pro', false)).toBe('Pro');
    expect(planLabel('enterprise', false)).toBe('Enterprise');
    expect(inTrial({ plan: 'pro', trialEndsAt: '2026-12-11T00:00:00Z' })).toBe(true);
    expect(inTrial({ plan: 'pro', trialEndsAt: null })).toBe(false);
    expect(inTrial({ plan: 'free', trialEndsAt: null })).toBe(false);
  });
});
