import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { formatNumber } from '../../i18n/format.ts';
import { i18n } from '../../i18n/index.ts';
import { formatTime } from '../../shell/dates.ts';
import { toolWords } from '../../shell/tool-words.ts';
import { EmailPart } from './EmailPart.tsx';
import { TranslateMessage } from './TranslateMessage.tsx';
import type { Channel, InboxMessage } from './types.ts';

/** Who wrote a message, in the inbox's words. */
function authorOf(m: InboxMessage, channel: Channel) {
  const words = (who: 'assistant' | 'agent' | 'system' | 'member' | 'customer') =>
    i18n.t(`inbox:message.authors.${who}`);
  if (m.role === 'assistant') return words('assistant');
  if (m.role === 'agent') return m.author?.name ?? words('agent');
  if (m.role === 'system') return words('system');
  // Internal chats are written by members (named); widget and SMS messages by the customer.
  return m.author?.name ?? words(channel === 'chat' ? 'member' : 'customer');
}

/** An SMS reply's delivery in words, with the provider's error code when it could not deliver. */
function deliveryWords(m: InboxMessage) {
  const words = i18n.t(`inbox:message.delivery.${m.deliveryStatus ?? 'sending'}`);
  return m.errorCode ? i18n.t('inbox:message.providerError', { words, code: m.errorCode }) : words;
}

/** An AI reply's confidence in words (docs/dashboard.md "Inbox"): low below 0.5. */
function confidenceWords(confidence: number) {
  const value = formatNumber(confidence, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return i18n.t(confidence < 0.5 ? 'inbox:message.confidenceLow' : 'inbox:message.confidence', { value });
}

/**
 * One message of a conversation: the author and role, tool steps in words, text, sources, an AI
 * reply's confidence, an SMS reply's delivery, and an email's own side (EmailPart.tsx). A withheld draft says so, with `draft` (its
 * actions) below it.
 */
export function MessageItem({
  message: m,
  channel,
  draft,
}: {
  message: InboxMessage;
  channel: Channel;
  draft?: ReactNode;
}) {
  const { t } = useTranslation('inbox');
  const kind = m.role === 'user' ? 'customer' : m.role;
  return (
    <li
      className={`msg ${kind}${m.withheld ? ' withheld' : ''}`}
      data-role={m.role}
      data-withheld={m.withheld}
    >
      <span className="who">
        {authorOf(m, channel)}
        {m.role === 'agent' && <span className="muted"> {t('message.person')}</span>}
        <time className="muted" dateTime={m.createdAt}>
          {' '}
          · {formatTime(m.createdAt)}
        </time>
      </span>
      {m.toolCalls.length > 0 && (
        <ul className="tools" aria-label={t('message.toolSteps')}>
          {m.toolCalls.map((call) => (
            // In words; the code name only in the tooltip (shell/tool-words.ts).
            <li key={call.toolCallId} title={call.toolName}>
              {toolWords(call.toolName, false)}
            </li>
          ))}
        </ul>
      )}
      {m.withheld && (
        <p className="withheld-note">
          <Trans t={t} i18nKey="message.withheld" components={{ strong: <strong /> }} />
        </p>
      )}
      {m.email ? <EmailPart email={m.email} text={m.content} /> : <p className="text">{m.content}</p>}
      <TranslateMessage message={m} />
      {m.role === 'assistant' && m.confidence !== null && (
        <p className={`muted confidence${m.confidence < 0.5 ? ' low' : ''}`} data-confidence={m.confidence}>
          {confidenceWords(m.confidence)}
        </p>
      )}
      {m.status !== 'complete' && (
        <p className="muted">{m.status === 'partial' ? t('message.partial') : t('message.failed')}</p>
      )}
      {m.deliveryStatus !== undefined && (
        <p
          className={`muted delivery${m.deliveryStatus === 'failed' || m.deliveryStatus === 'undelivered' ? ' not-delivered' : ''}`}
          data-delivery={m.deliveryStatus ?? 'sending'}
        >
          {deliveryWords(m)}
        </p>
      )}
      {m.citations.length > 0 && (
        <ol className="citations" aria-label={t('message.sources')}>
          {m.citations.map((s) => (
            <li key={`${s.index}-${s.sourceId}`}>
              [{s.index}]{' '}
              {s.url ? (
                <a href={s.url} target="_blank" rel="noreferrer">
                  {s.title ?? s.url}
                </a>
              ) : (
                (s.title ?? t('message.knowledge'))
              )}
            </li>
          ))}
        </ol>
      )}
      {draft}
    </li>
  );
}
