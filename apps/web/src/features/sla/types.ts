import type { createSlaPolicyBody, SLA_CHANNELS, slaPolicySchema } from '@parley/contract/sla';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { get } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';

/** An SLA policy as the API answers it (docs/sla.md "Policies"; the schemas type-only). */
export type SlaPolicy = z.output<typeof slaPolicySchema>;
export type SlaPolicyInput = z.input<typeof createSlaPolicyBody>;
export type SlaChannel = (typeof SLA_CHANNELS)[number];

export const slaPath = (ws: string) => `/api/workspaces/${ws}/sla-policies`;

/** The workspace's policies in the order one is chosen: priority, then the older (at most 50, no paging). */
export function useSlaPolicies(ws: string) {
  return useQuery({
    queryKey: ['sla-policies', ws],
    queryFn: () => get<{ data: SlaPolicy[] }>(slaPath(ws)),
    enabled: Boolean(ws),
  });
}

/** A policy's targets in the order they are listed; their names are `sla:targets.<key>`. */
export const TARGETS = ['firstResponseMinutes', 'nextResponseMinutes', 'resolutionMinutes'] as const;
export type TargetKey = (typeof TARGETS)[number];

/** A target's name in the dashboard's language: "First response". */
export const targetName = (key: TargetKey) => i18n.t(`sla:targets.${key}`);

/** 30 → "30 min", 480 → "8 h", 90 → "1 h 30 min", 2880 → "2 d", 1500 → "1 d 1 h": exact, every unit. */
export function minutesInWords(m: number): string {
  const parts = [
    ['d', Math.floor(m / 1440)],
    ['h', Math.floor((m % 1440) / 60)],
    ['min', m % 60],
  ] as const;
  return parts
    .filter(([, n]) => n > 0)
    .map(([unit, count]) => i18n.t(`sla:span.${unit}`, { count }))
    .join(' ');
}

/** The policy's targets in words: "First response 30 min · Resolution 8 h". */
export const targetsInWords = (p: Pick<SlaPolicy, TargetKey>) =>
  TARGETS.flatMap((key) => {
    const m = p[key];
    return m == null ? [] : [i18n.t('sla:target', { target: targetName(key), span: minutesInWords(m) })];
  }).join(' · ');
