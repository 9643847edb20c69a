import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToolStep } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { MessageView } from './Messages.tsx';
import { applyTool, streamChat } from './stream.ts';

type Live = { question: string; text: string; tools: ToolStep[] };

/**
 * The message box and the reply while it streams. When the stream finishes, the stored messages
 * (with their citations) are re-read and replace the live view.
 */
export function Composer(props: {
  assistantId: string;
  conversationId?: string;
  onDone(conversationId: string): Promise<void>;
}) {
  const { t } = useTranslation('chat');
  const [live, setLive] = useState<Live | null>(null);
  const [error, setError] = useState<unknown>(null);
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const content = String(new FormData(form).get('content') ?? '').trim();
    if (!content || live) return;
    setError(null);
    setLive({ question: content, text: '', tools: [] });
    try {
      const id = await streamChat(
        { assistantId: props.assistantId, conversationId: props.conversationId, content },
        (ev) => {
          if (ev.type === 'error') setError(new Error(ev.error));
          setLive(
            (old) =>
              old && {
                ...old,
                text: ev.type === 'text-delta' ? old.text + ev.textDelta : old.text,
                tools: applyTool(old.tools, ev),
              },
          );
        },
      );
      form.reset();
      await props.onDone(id);
    } catch (err) {
      setError(err);
    } finally {
      setLive(null);
    }
  };
  return (
    <>
      {live && (
        <ol className="messages" aria-label={t('inProgress')}>
          <MessageView author="user" content={live.question} />
          <MessageView author="assistant" content={live.text} toolCalls={live.tools} streaming />
        </ol>
      )}
      <ErrorText error={error} />
      <form onSubmit={onSubmit} className="composer">
        <label className="grow">
          <span className="sr-only">{t('yourMessage')}</span>
          <textarea
            name="content"
            rows={2}
            maxLength={8000}
            required
            placeholder={t('ask')}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
          />
        </label>
        <button type="submit" className="primary" disabled={Boolean(live)}>
          {t('send')}
        </button>
      </form>
    </>
  );
}
