import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type Data, patch } from '../../api.ts';
import { CopyButton } from '../../shell/CopyButton.tsx';
import { ErrorText } from '../../shell/ui.tsx';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { type EmailConfig, emailPath } from './types.ts';

/**
 * The secret address the mail server forwards to (docs/email.md "Inbound by forwarding"), to
 * copy, and a new one on request after a question (the old one stops at once).
 */
export function Forwarding({ id, config, url }: { id: string; config: EmailConfig; url: string }) {
  const { t } = useTranslation('email');
  const qc = useQueryClient();
  const rotate = useMutation({
    mutationFn: () => patch<Data<EmailConfig>>(emailPath(id), { rotateForwardToken: true }),
    onSuccess: (fresh) => qc.setQueryData(['email', id], fresh.data),
  });
  return (
    <section className="card stack email-card" aria-labelledby="email-forward-title">
      <h2 id="email-forward-title">{t('forwarding.title')}</h2>
      <p>{t('forwarding.text', { address: config.address })}</p>
      <label>
        {t('forwarding.label')}
        <input className="secret" readOnly value={url} onFocus={(e) => e.target.select()} />
      </label>
      <div className="row email-actions">
        {/* Keyed by the URL: once rotated, "Copied" and the question close. */}
        <CopyButton key={`copy-${url}`} text={url} label={t('forwarding.copy')} />
        <ConfirmButton
          key={url}
          label={t('forwarding.rotate')}
          question={t('forwarding.rotateQuestion')}
          confirmLabel={t('forwarding.rotateConfirm')}
          pending={rotate.isPending}
          onConfirm={() => rotate.mutate()}
        />
      </div>
      <p role="status" className="muted">
        {rotate.isSuccess ? t('forwarding.rotated') : ''}
      </p>
      <ErrorText error={rotate.error} />
      {!config.isEnabled && <p className="warn">{t('forwarding.off')}</p>}
    </section>
  );
}
