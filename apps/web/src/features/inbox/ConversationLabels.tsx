import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Data } from '../../api.ts';
import { LabelPicker } from '../labels/LabelPicker.tsx';
import { type InboxConversation, inboxPath } from './types.ts';

/**
 * The conversation's labels card in the side column (docs/labels.md "Sets"): members and up tick
 * them, guests see them. The new set is the conversation's at once; the inbox list reads again.
 */
export function ConversationLabels({
  ws,
  conversation: c,
  canAnswer,
}: {
  ws: string;
  conversation: InboxConversation;
  canAnswer: boolean;
}) {
  const { t } = useTranslation('inbox');
  const qc = useQueryClient();
  return (
    <div className="card stack">
      <h2>{t('labels.title')}</h2>
      <LabelPicker
        ws={ws}
        path={`${inboxPath}/${c.id}/labels?workspaceId=${ws}`}
        labels={c.labels}
        canWrite={canAnswer}
        of={t('labels.of')}
        onSaved={(labels) => {
          qc.setQueryData<Data<InboxConversation>>(['inbox-conversation', c.id], (old) =>
            old ? { data: { ...old.data, labels } } : old,
          );
          void qc.invalidateQueries({ queryKey: ['inbox', ws] });
        }}
      />
    </div>
  );
}
