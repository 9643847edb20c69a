import type { EmailMessageInfo } from '@parley/contract/email';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatList, formatNumber } from '../../i18n/format.ts';
import { emailDocument } from './email-html.ts';
import './email-part.css';

type Mailbox = EmailMessageInfo['from'];
const mailboxWords = (m: Mailbox) => (m.name ? `${m.name} <${m.address}>` : m.address);
const sizeWords = (bytes: number) =>
  bytes < 1024
    ? formatNumber(bytes, { style: 'unit', unit: 'byte', unitDisplay: 'short' })
    : formatNumber(bytes / 1024, {
        style: 'unit',
        unit: 'kilobyte',
        unitDisplay: 'short',
        maximumFractionDigits: 1,
      });

/**
 * The email side of a message in the inbox (docs/email.md "Dashboard"): subject and addresses,
 * the DMARC mark and the sender checks in words, the HTML in a sandboxed frame (or the text),
 * attachments to download, and why the AI did not answer or how a reply's sending went.
 */
export function EmailPart({ email, text }: { email: EmailMessageInfo; text: string }) {
  const { t } = useTranslation('email');
  const [plain, setPlain] = useState(false);
  const doc = useMemo(() => (email.html ? emailDocument(email.html) : null), [email.html]);
  const from = mailboxWords(email.from);
  const auth = email.authentication;
  const verdict = (v: string) => t(`inbox.verdict.${v}` as 'inbox.verdict.none', { defaultValue: v });
  return (
    <div className="email-part">
      <div className="email-head">
        <p className="email-subject">{t('inbox.subject', { subject: email.subject })}</p>
        <p>{t('inbox.from', { from })}</p>
        {email.to.length > 0 && (
          <p className="muted">{t('inbox.to', { to: formatList(email.to.map(mailboxWords)) })}</p>
        )}
      </div>
      {email.marked && (
        <p className="email-marked" data-marked="true">
          <strong>{t('inbox.marked', { domain: email.from.address.split('@').pop() ?? '' })}</strong>
        </p>
      )}
      {auth && (
        <p className={`muted email-auth${email.marked ? ' failed' : ''}`}>
          {t('inbox.auth', { spf: verdict(auth.spf), dkim: verdict(auth.dkim), dmarc: verdict(auth.dmarc) })}
        </p>
      )}
      {doc && !plain ? (
        <iframe className="email-html" title={t('inbox.frameTitle', { from })} sandbox="" srcDoc={doc} />
      ) : (
        <p className="text">{text}</p>
      )}
      {doc && (
        <button type="button" className="email-toggle" onClick={() => setPlain(!plain)}>
          {plain ? t('inbox.showHtml') : t('inbox.showText')}
        </button>
      )}
      {email.attachments.length > 0 && (
        <ul className="email-attachments" aria-label={t('inbox.attachments')}>
          {email.attachments.map((a) => (
            <li key={a.id}>
              <a href={a.url} download={a.filename} aria-label={t('inbox.download', { name: a.filename })}>
                {a.filename}
              </a>{' '}
              <span className="muted">
                {a.contentType} · {sizeWords(a.size)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {email.notAnswered && (
        <p className="muted email-not-answered">{t(`inbox.notAnswered.${email.notAnswered}`)}</p>
      )}
      {email.delivery && (
        <p
          className={`muted delivery${email.delivery.state === 'failed' ? ' not-delivered' : ''}`}
          data-delivery={email.delivery.state}
        >
          {t(`inbox.delivery.${email.delivery.state}`, { error: email.delivery.error ?? '' })}
        </p>
      )}
    </div>
  );
}
