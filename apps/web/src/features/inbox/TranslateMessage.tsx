import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { type Data, post } from '../../api.ts';
import { languageName } from '../../i18n/format.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { type Translation, translatable, useCanTranslate } from './translation.ts';
import { type InboxMessage, inboxPath } from './types.ts';
import './translation.css';

/**
 * Under a message (docs/languages.md "Translation"): on a customer's, **Translate**, and the
 * translation into the dashboard's language under it; on a reply sent translated, what the person
 * wrote. Without a remote model the button is disabled and says why.
 */
export function TranslateMessage({ message: m }: { message: InboxMessage }) {
  const { ws = '' } = useParams();
  const { t, i18n } = useTranslation('translation');
  const available = useCanTranslate(ws);
  const to = translatable(i18n.language) ?? 'en';
  const run = useMutation({
    mutationFn: () =>
      post<Data<Translation>>(
        `${inboxPath}/${m.conversationId}/messages/${m.id}/translate?workspaceId=${ws}`,
        { to },
      ),
  });
  if (m.originalContent !== null) {
    return (
      <p className="original" data-testid="original-content">
        <span className="label">{t('original')}</span>
        <span dir="auto">{m.originalContent}</span>
      </p>
    );
  }
  if (m.role !== 'user' || m.content.trim() === '') return null;
  const shown = run.data?.data;
  const reason = available === false ? t('needsModel') : undefined;
  return (
    <>
      <div className="translate">
        <button
          type="button"
          disabled={available !== true || run.isPending}
          title={reason ?? t('translateInto', { language: languageName(to, i18n.language) })}
          onClick={() => run.mutate()}
        >
          {run.isPending ? t('translating') : t('translate')}
        </button>
        {reason && <span className="muted translate-reason">{reason}</span>}
      </div>
      <ErrorText error={run.error} />
      {shown && (
        <p className="translation" data-testid="translation">
          <span className="label">
            {shown.from && shown.from !== shown.to
              ? t('translatedFrom', { language: languageName(shown.from, i18n.language) })
              : t('translation')}
          </span>
          <span lang={shown.to} dir="auto">
            {shown.text}
          </span>
        </p>
      )}
    </>
  );
}
