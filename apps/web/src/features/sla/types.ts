import type { createSlaPolicyBody, SLA_CHANNELS, slaPolicySchema } from '@parley/contract/sla';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { get } from '../../api.ts';

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

export const TARGETS = [
  { key: 'firstResponseMinutes', label: 'First response' },
  { key: 'nextResponseMinutes', label: 'Next response' },
  { key: 'resolutionMinutes', label: 'Resolution' },
] as const;
export type TargetKey = (typeof TARGETS)[number]['key'];

/** 30 → "30 min", 480 → "8 h", 90 → "1 h 30 min", 2880 → "2 d", 1500 → "1 d 1 h". */
export function minutesInWords(m: number): string {
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  const min = m % 60;
  return [d && `${d} d`, h && `${h} h`, min && `${min} min`].filter(Boolean).join(' ');
}

/** The policy's targets in words: "First response 30 min · Resolution 8 h". */
export const targetsInWords = (p: Pick<SlaPolicy, TargetKey>) =>
  TARGETS.flatMap((t) => {
    const m = p[t.key];
    return m == null ? [] : [`${t.label} ${minutesInWords(m)}`];
  }).join(' · ');
