import { Trans, useTranslation } from 'react-i18next';
import { CopyButton } from '../../shell/CopyButton.tsx';
import type { WidgetConfig } from './types.ts';

/**
 * The tag to paste into the site's pages, as the API gives it (docs/widget.md "Embedding and configuration").
 */
export function Snippet({ saved }: { saved: WidgetConfig }) {
  const { t } = useTranslation('widget');
  return (
    <section className="card stack wg-snippet" aria-labelledby="wg-snippet-title">
      <h2 id="wg-snippet-title">{t('snippet.title')}</h2>
      <p>
        <Trans t={t} i18nKey="snippet.text" values={{ tag: '</body>' }} components={{ code: <code /> }} />
      </p>
      <pre className="wg-code">
        <code>{saved.embedSnippet}</code>
      </pre>
      <div>
        <CopyButton text={saved.embedSnippet} label={t('snippet.copy')} />
      </div>
      {(!saved.isEnabled || saved.allowedDomains.length === 0) && (
        <p className="warn">{!saved.isEnabled ? t('snippet.notEnabled') : t('snippet.noDomain')}</p>
      )}
    </section>
  );
}
