import type { labelRef, labelSchema } from '@parley/contract/labels';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, get } from '../../api.ts';

/** Labels as the API answers them (docs/labels.md "Fields"; the schemas type-only). */
export type Label = z.output<typeof labelSchema>;
/** A label as a conversation or a contact carries it (docs/labels.md "Sets"). */
export type LabelRef = z.output<typeof labelRef>;

export const labelsPath = (ws: string) => `/api/workspaces/${ws}/labels`;

/** The workspace's labels, all of them, by name (docs/labels.md: no paging, at most 200). */
export function useLabels(ws: string) {
  return useQuery({
    queryKey: ['labels', ws],
    queryFn: () => get<{ data: Label[] }>(labelsPath(ws)),
    enabled: Boolean(ws),
  });
}

/** Replace a conversation's or a contact's set (`PUT .../labels`, docs/labels.md "Sets"). */
export const putLabels = (path: string, labelIds: string[]) =>
  api<{ data: LabelRef[] }>('PUT', path, { labelIds });

/** The relative luminance of `#rrggbb` (WCAG 2). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

/**
 * Black or white text on a chip of `color`, whichever contrasts more: one of them always reaches
 * 4.5:1, so the chip reads the same in light and dark themes.
 */
export function textOn(color: string): '#000000' | '#ffffff' {
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) return '#000000';
  const l = luminance(color);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}
