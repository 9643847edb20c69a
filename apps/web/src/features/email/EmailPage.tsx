import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type Data, del, get } from '../../api.ts';
import { formatDateTime } from '../../shell/dates.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { ChannelPage } from '../assistants/ChannelPage.tsx';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { EmailForm } from './EmailForm.tsx';
import { Forwarding } from './Forwarding.tsx';
import { type EmailConfig, emailPath } from './types.ts';
import './email.css';

/** The configuration, or null when the assistant has none yet (the API's 404). */
async function loadConfig(id: string): Promise<EmailConfig | null> {
  try {
    return (await get<Data<EmailConfig>>(emailPath(id))).data;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && err.code.startsWith('not_found')) return null;
    throw err;
  }
}

/**
 * The email channel of an assistant (docs/email.md "Dashboard"): the address, how mail comes in
 * (forwarding or IMAP) and goes out (SMTP), the options, a test, the status and the forwarding
 * URL. Owners and admins only, on a plan with channels, as the API allows; anyone else is told
 * why instead of being sent requests that can only be refused.
 */
export function EmailPage() {
  return (
    <ChannelPage namespace="email" queryKey="email" load={(_ws, id) => loadConfig(id)}>
      {(page) => <EmailSettings {...page} />}
    </ChannelPage>
  );
}

/** The page once the configuration is read: its status, the form, forwarding, disconnect. */
function EmailSettings(props: {
  id: string;
  header: ReactNode;
  assistant: { error: unknown };
  saved: EmailConfig | null;
}) {
  const { id, header, assistant, saved } = props;
  const { t } = useTranslation('email');
  const qc = useQueryClient();
  const remove = useMutation({
    mutationFn: () => del(emailPath(id)),
    onSuccess: () => qc.setQueryData(['email', id], null),
  });
  const status = saved?.status;
  return (
    <section>
      {header}
      <ErrorText error={assistant.error} />
      <p className="muted email-intro">{t('intro')}</p>
      {saved && status && (
        <section className="card stack email-card email-status" aria-labelledby="email-status-title">
          <h2 id="email-status-title">{t('status.title')}</h2>
          {status.checkedAt ? (
            <>
              <p className={status.state === 'ok' ? 'email-ok' : 'warn'}>
                {t(status.state === 'ok' ? 'status.ok' : 'status.error', { message: status.message })}
              </p>
              <p className="muted">{t('status.checked', { date: formatDateTime(status.checkedAt) })}</p>
            </>
          ) : (
            <p className="muted">{t('status.none')}</p>
          )}
        </section>
      )}
      {/* A first save or a deletion starts the form afresh; later saves keep it (and its "Saved"). */}
      <EmailForm key={`${id}-${saved ? 'saved' : 'new'}`} id={id} saved={saved} />
      {saved?.inbound.mode === 'forward' && (
        <Forwarding id={id} config={saved} url={saved.inbound.forwardUrl} />
      )}
      {saved && (
        <div className="row email-card email-danger">
          <ConfirmButton
            label={t('remove.button')}
            question={t('remove.question')}
            confirmLabel={t('remove.confirm')}
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
          <ErrorText error={remove.error} />
        </div>
      )}
    </section>
  );
}
