import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import type { SsoTestMessage } from './types.ts';

/**
 * Where a connection's test sign-in ends, inside the popup the settings page opened: it tells the
 * opener the result (same origin only) and says it in words.
 */
export function SsoTestResult() {
  const [params] = useSearchParams();
  const ok = params.get('result') === 'ok';
  const email = params.get('email');
  useEffect(() => {
    const message: SsoTestMessage = { type: 'parley-sso-test', result: ok ? 'ok' : 'failed', email };
    window.opener?.postMessage(message, window.location.origin);
  }, [ok, email]);
  return (
    <section>
      <h1>Single sign-on test</h1>
      {ok ? (
        <p role="status">The identity provider signed in {email}. You can close this window.</p>
      ) : (
        <p role="alert">The test sign-in did not complete.</p>
      )}
    </section>
  );
}
