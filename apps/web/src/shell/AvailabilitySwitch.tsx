import type { Member } from '@parley/contract/api-types';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, type Data, type OffsetPage } from '../api.ts';
import { useMembers } from '../features/inbox/directory.ts';
import { useSession } from '../session.ts';

type Status = Member['availability'];
const STATUSES: Status[] = ['online', 'busy', 'offline'];

/**
 * The header's availability switch (docs/dashboard.md "Inbox"): whether the signed-in person takes
 * conversations in this workspace now. Shown to those who answer (not guests).
 */
export function AvailabilitySwitch({ ws }: { ws: string }) {
  const { t } = useTranslation();
  const me = useSession().data?.id;
  const members = useMembers(ws);
  const qc = useQueryClient();
  const key = ['members', ws, 'all'];
  const set = useMutation({
    mutationFn: (status: Status) =>
      api<Data<{ status: Status }>>('PUT', `/api/workspaces/${ws}/members/me/availability`, { status }),
    onSuccess: (res) => {
      qc.setQueryData<OffsetPage<Member>>(key, (old) =>
        old
          ? {
              ...old,
              data: old.data.map((m) => (m.userId === me ? { ...m, availability: res.data.status } : m)),
            }
          : old,
      );
      void qc.invalidateQueries({ queryKey: ['members', ws] });
    },
  });
  const mine = members.data?.data.find((m) => m.userId === me);
  if (!mine || mine.role === 'guest') return null;
  const shown = set.isPending && set.variables ? set.variables : mine.availability;
  return (
    <label className={`availability availability-${shown}`}>
      <span className="sr-only">{t('availability.label')}</span>
      <select value={shown} onChange={(e) => set.mutate(e.target.value as Status)} disabled={set.isPending}>
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {t(`availability.${s}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
