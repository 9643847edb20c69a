import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type Data, post } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { type InboxConversation, type InboxMessage, inboxPath } from './types.ts';

/** A draft's text for a person to send: its `[n]` source markers mean nothing outside the AI's reply. */
export const draftText = (content: string) =>
  content
    .replace(/\s*\[\d{1,3}\]/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .trim();

/**
 * The AI's reply held back below the assistant's minimum confidence (docs/dashboard.md "Inbox"):
 * the customer never saw it. A person sends it as is, edits it in the reply box, or writes another.
 */
export function WithheldDraft({
  ws,
  conversation: c,
  message: m,
  canAnswer,
  onEdit,
  onSent,
}: {
  ws: string;
  conversation: InboxConversation;
  message: InboxMessage;
  canAnswer: boolean;
  onEdit(text: string): void;
  onSent(): void;
}) {
  const { t } = useTranslation('inbox');
  const send = useMutation({
    mutationFn: () =>
      post<Data<InboxMessage>>(`${inboxPath}/${c.id}/messages?workspaceId=${ws}`, {
        content: draftText(m.content),
      }),
    onSuccess: onSent,
  });
  if (!canAnswer || c.status === 'closed') return null;
  return (
    <div className="row draft-actions">
      <button type="button" className="primary" disabled={send.isPending} onClick={() => send.mutate()}>
        {t('draft.send')}
      </button>
      <button type="button" disabled={send.isPending} onClick={() => onEdit(draftText(m.content))}>
        {t('draft.edit')}
      </button>
      <ErrorText error={send.error} />
    </div>
  );
}
