import type { Plan } from './plans.ts';

/**
 * Widget messages a day per assistant, by plan (docs/widget.md "Limits"); null: no limit. Its own
 * module, importing nothing at run time, because the dashboard shows these figures too and
 * bundles this file (apps/web/src/features/widget/WidgetSettings.tsx); widget-limits.ts enforces them.
 */
export const DAILY_MESSAGE_QUOTA: Readonly<Record<Plan, number | null>> = {
  free: 200,
  pro: 5000,
  enterprise: null,
};
