import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { SsoTestMessage } from './types.ts';

/**
 * Where a connection's test sign-in ends, inside the popup the settings page opened: it tells the
 * opener the result (same origin only) and says it in words.
 */
export function SsoTestResult() {
  const { t } = useTranslation('sso');
  const [params] = useSearchParams();
  const ok = params.get('result') === 'ok';
  const email = params.get('email');
  useEffect(() => {
    const message: SsoTestMessage = { type: 'parley-sso-test', result: ok ? 'ok' : 'failed', email };
    window.opener?.postMessage(message, window.location.origin);
  }, [ok, email]);
  return (
    <section>
      <h1>{t('testResult.title')}</h1>
      {ok ? (
        <p role="status">{t('testResult.ok', { email })}</p>
      ) : (
        <p role="alert">{t('testResult.failed')}</p>
      )}
    </section>
  );
}
