import { useQuery } from '@tanstack/react-query';
import { type AssistantItem, get, type OffsetPage } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';
import type { Member } from '../members/types.ts';

/**
 * The workspace's members and assistants, for names, filters and the assignee menus of the inbox
 * and tickets. The first 100 of each (the API's largest page): enough for the menus of a support
 * team; a larger workspace sees ids for the rest.
 */
export function useMembers(ws: string) {
  return useQuery({
    queryKey: ['members', ws, 'all'],
    queryFn: () => get<OffsetPage<Member>>(`/api/workspaces/${ws}/members?limit=100&offset=0`),
    staleTime: 60_000,
  });
}

export function useAssistants(ws: string) {
  return useQuery({
    queryKey: ['assistants', ws, 'all'],
    queryFn: () => get<OffsetPage<AssistantItem>>(`/api/assistants?workspaceId=${ws}&limit=100&offset=0`),
    staleTime: 60_000,
  });
}

/** A member's name by user id (`fallback` while loading or for someone not in the first page). */
export function nameOf(
  members: Member[] | undefined,
  userId: string | null,
  fallback = i18n.t('inbox:someone'),
) {
  if (!userId) return null;
  return members?.find((m) => m.userId === userId)?.name ?? fallback;
}
