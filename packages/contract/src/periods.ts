import { z } from 'zod';

/**
 * Analytics periods, the one definition: workspace analytics (docs/analytics.md "Periods") and SMS
 * analytics (docs/sms.md "Analytics") count the same whole UTC days, today included.
 */
export const PERIODS = { '7d': 7, '30d': 30, '90d': 90 } as const;
export type Period = keyof typeof PERIODS;

export const periodField = z.enum(['7d', '30d', '90d'], { message: 'Must be 7d, 30d or 90d' }).default('30d');
