import type { ReactNode } from 'react';
import { formatTime } from '../../shell/dates.ts';
import { toolWords } from '../../shell/tool-words.ts';
import { EmailPart } from './EmailPart.tsx';
import type { Channel, InboxMessage } from './types.ts';

/** Who wrote a message, in the inbox's words. */
function authorOf(m: InboxMessage, channel: Channel) {
  if (m.role === 'assistant') return 'AI';
  if (m.role === 'agent') return m.author?.name ?? 'Agent';
  if (m.role === 'system') return 'System';
  // Internal chats are written by members (named); widget and SMS messages by the customer.
  return m.author?.name ?? (channel === 'chat' ? 'Member' : 'Customer');
}

const DELIVERY_WORDS = {
  queued: 'SMS queued at the provider',
  sent: 'SMS sent',
  delivered: 'SMS delivered',
  undelivered: 'SMS not delivered',
  failed: 'SMS failed',
} as const;

/** An SMS reply's delivery in words, with the provider's error code when it could not deliver. */
function deliveryWords(m: InboxMessage) {
  const words = m.deliveryStatus ? DELIVERY_WORDS[m.deliveryStatus] : 'SMS being sent';
  return m.errorCode ? `${words} (provider error ${m.errorCode})` : words;
}

/** An AI reply's confidence in words (docs/dashboard.md "Inbox"): low below 0.5. */
function confidenceWords(confidence: number) {
  return `Confidence ${confidence.toFixed(2)}${confidence < 0.5 ? ' (low)' : ''}`;
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
  const kind = m.role === 'user' ? 'customer' : m.role;
  return (
    <li
      className={`msg ${kind}${m.withheld ? ' withheld' : ''}`}
      data-role={m.role}
      data-withheld={m.withheld}
    >
      <span className="who">
        {authorOf(m, channel)}
        {m.role === 'agent' && <span className="muted"> (person)</span>}
        <time className="muted" dateTime={m.createdAt}>
          {' '}
          · {formatTime(m.createdAt)}
        </time>
      </span>
      {m.toolCalls.length > 0 && (
        <ul className="tools" aria-label="Tool steps">
          {m.toolCalls.map((t) => (
            // In words; the code name only in the tooltip (shell/tool-words.ts).
            <li key={t.toolCallId} title={t.toolName}>
              {toolWords(t.toolName, false)}
            </li>
          ))}
        </ul>
      )}
      {m.withheld && (
        <p className="withheld-note">
          <strong>Draft withheld:</strong> below the assistant's minimum confidence, so the customer did not
          see it.
        </p>
      )}
      {m.email ? <EmailPart email={m.email} text={m.content} /> : <p className="text">{m.content}</p>}
      {m.role === 'assistant' && m.confidence !== null && (
        <p className={`muted confidence${m.confidence < 0.5 ? ' low' : ''}`} data-confidence={m.confidence}>
          {confidenceWords(m.confidence)}
        </p>
      )}
      {m.status !== 'complete' && (
        <p className="muted">{m.status === 'partial' ? 'The reply was cut short.' : 'The reply failed.'}</p>
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
        <ol className="citations" aria-label="Sources">
          {m.citations.map((s) => (
            <li key={`${s.index}-${s.sourceId}`}>
              [{s.index}]{' '}
              {s.url ? (
                <a href={s.url} target="_blank" rel="noreferrer">
                  {s.title ?? s.url}
                </a>
              ) : (
                (s.title ?? 'Knowledge')
              )}
            </li>
          ))}
        </ol>
      )}
      {draft}
    </li>
  );
}
