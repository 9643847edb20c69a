import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { CopyButton } from '../../shell/CopyButton.tsx';

/**
 * The address to paste at the provider (docs/dashboard.md "SMS"): its number's "a message comes
 * in" webhook, HTTP POST. Requests to it are accepted only when signed with the saved auth token.
 */
export function SmsWebhook(props: { url: string; enabled: boolean; children?: ReactNode }) {
  const { t } = useTranslation('sms');
  return (
    <section className="card stack sms-webhook" aria-labelledby="sms-webhook-title">
      <h2 id="sms-webhook-title">{t('webhook.title')}</h2>
      <p>
        <Trans t={t} i18nKey="webhook.text" components={{ em: <em /> }} />
      </p>
      <label>
        {t('webhook.label')}
        <input className="secret" readOnly value={props.url} onFocus={(e) => e.target.select()} />
      </label>
      <div className="row">
        <CopyButton text={props.url} label={t('webhook.copy')} />
      </div>
      {!props.enabled && <p className="warn">{t('webhook.off')}</p>}
      <div className="row sms-danger">{props.children}</div>
    </section>
  );
}
