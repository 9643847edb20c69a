import type { ReactNode } from 'react';
import { CopyButton } from '../../shell/CopyButton.tsx';

/**
 * The address to paste at the provider (docs/dashboard.md "SMS"): its number's "a message comes
 * in" webhook, HTTP POST. Requests to it are accepted only when signed with the saved auth token.
 */
export function SmsWebhook(props: { url: string; enabled: boolean; children?: ReactNode }) {
  return (
    <section className="card stack sms-webhook" aria-labelledby="sms-webhook-title">
      <h2 id="sms-webhook-title">Webhook URL</h2>
      <p>
        In the provider’s console, open the number and paste this address as the webhook for{' '}
        <em>a message comes in</em>, method HTTP POST. Parley accepts only requests the provider signs with
        this account’s auth token.
      </p>
      <label>
        Webhook URL
        <input className="secret" readOnly value={props.url} onFocus={(e) => e.target.select()} />
      </label>
      <div className="row">
        <CopyButton text={props.url} label="Copy webhook URL" />
      </div>
      {!props.enabled && (
        <p className="warn">
          SMS is switched off: messages to the number are not answered until you enable it.
        </p>
      )}
      <div className="row sms-danger">{props.children}</div>
    </section>
  );
}
