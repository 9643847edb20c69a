import type { inboxSettingsSchema } from '@parley/contract/inbox';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { type Data, get } from '../../api.ts';

/** A workspace's inbox settings (docs/inbox.md "Auto-assignment"; the contract's schema, type-only). */
export type InboxSettings = z.output<typeof inboxSettingsSchema>;

export const inboxSettingsPath = (ws: string) => `/api/workspaces/${ws}/inbox-settings`;

/** The bounds of `maxOpenPerAgent`, as the contract sets them. */
export const MAX_OPEN = { min: 1, max: 100 } as const;

export function useInboxSettings(ws: string) {
  return useQuery({
    queryKey: ['inbox-settings', ws],
    queryFn: () => get<Data<InboxSettings>>(inboxSettingsPath(ws)),
    enabled: Boolean(ws),
  });
}
