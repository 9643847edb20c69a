import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type Data, patch } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { type Availability, AvailabilityTag } from './Availability.tsx';
import { nameOf, useMembers } from './directory.ts';
import { type InboxConversation, inboxPath } from './types.ts';

const ORDER: Record<Availability, number> = { online: 0, busy: 1, offline: 2 };
/** The menu's groups, in that order: a screen reader names each person's group with them. */
const GROUPS: Availability[] = ['online', 'busy', 'offline'];

/**
 * The conversation's assignee, and who can take it now: each person's availability (docs/workspaces.md
 * "Availability") as the menu's groups and in a list with a dot and the word, live from the inbox
 * stream's `member.updated` (live.ts keeps the members' cache). Guests see the assignee only.
 */
export function Assign(props: {
  ws: string;
  conversation: InboxConversation;
  canAnswer: boolean;
  onChanged(): void;
}) {
  const { ws, conversation: c, canAnswer } = props;
  const { t } = useTranslation(['inbox', 'shell']);
  const qc = useQueryClient();
  const members = useMembers(ws);
  const assign = useMutation({
    mutationFn: (assigneeId: string | null) =>
      patch<Data<InboxConversation>>(`${inboxPath}/${c.id}?workspaceId=${ws}`, { assigneeId }),
    onSuccess: (res) => {
      qc.setQueryData(['inbox-conversation', c.id], res);
      props.onChanged();
    },
  });
  const name = nameOf(members.data?.data, c.assigneeId);
  if (!canAnswer) return <p>{t('assign.readOnly', { name: name ?? t('assign.nobodyReadOnly') })}</p>;
  // People who can answer; guests cannot be assigned (the API refuses them).
  const who = members.data?.data.filter((m) => m.role !== 'guest') ?? [];
  const byAvailability = [...who].sort((a, b) => ORDER[a.availability] - ORDER[b.availability]);
  return (
    <>
      <label>
        {t('assign.assignee')}
        <select
          value={c.assigneeId ?? ''}
          disabled={assign.isPending || c.status === 'closed'}
          onChange={(e) => assign.mutate(e.target.value || null)}
        >
          <option value="">{t('assign.nobody')}</option>
          {c.assigneeId && !who.some((m) => m.userId === c.assigneeId) && (
            <option value={c.assigneeId}>{name}</option>
          )}
          {GROUPS.map((availability) => {
            const group = who.filter((m) => m.availability === availability);
            return (
              group.length > 0 && (
                <optgroup key={availability} label={t(`shell:availability.${availability}`)}>
                  {group.map((m) => (
                    <option key={m.userId} value={m.userId}>
                      {m.name}
                    </option>
                  ))}
                </optgroup>
              )
            );
          })}
        </select>
      </label>
      <ErrorText error={assign.error} />
      {byAvailability.length > 0 && (
        <p className="muted team-caption" id={`team-${c.id}`}>
          {t('assign.team')}
        </p>
      )}
      {byAvailability.length > 0 && (
        <ul className="team-availability" aria-labelledby={`team-${c.id}`}>
          {byAvailability.map((m) => (
            <li key={m.userId}>
              <span className="team-name">{m.name}</span> <AvailabilityTag availability={m.availability} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
