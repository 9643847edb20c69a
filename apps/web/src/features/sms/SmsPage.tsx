import { useTranslation } from 'react-i18next';
import { ErrorText } from '../../shell/ui.tsx';
import { ChannelPage } from '../assistants/ChannelPage.tsx';
import { SmsAnalyticsCard } from './SmsAnalytics.tsx';
import { SmsForm } from './SmsForm.tsx';
import { SmsSessions } from './SmsSessions.tsx';
import { loadConfig } from './save.ts';
import './sms.css';

/**
 * The SMS channel of an assistant (docs/dashboard.md "SMS"): the provider account and number,
 * the options, a test against the provider, the webhook URL to paste there, the sessions and the
 * message volume. Owners and admins only, on a plan with channels, as the API allows; anyone
 * else is told why instead of being sent requests that can only be refused.
 */
export function SmsPage() {
  const { t } = useTranslation('sms');
  return (
    <ChannelPage namespace="sms" queryKey="sms" load={loadConfig}>
      {({ ws, id, header, assistant, saved }) => (
        <section>
          {header}
          <ErrorText error={assistant.error} />
          <p className="muted sms-intro">{t('intro')}</p>
          <SmsForm key={id} ws={ws} id={id} saved={saved} />
          {saved && (
            <div className="grid sms-below">
              <SmsSessions ws={ws} id={id} />
              <SmsAnalyticsCard ws={ws} id={id} />
            </div>
          )}
        </section>
      )}
    </ChannelPage>
  );
}
