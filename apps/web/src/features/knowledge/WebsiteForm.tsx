import type { CreateSourceInput, WebsiteMode } from '@parley/contract/api-types';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Choices, ErrorText } from '../../shell/ui.tsx';
import { useAddSource } from './mutations.ts';

type Mode = WebsiteMode;

const MODES: readonly Mode[] = ['page', 'sitemap', 'crawl'];

/** One path prefix a line ("/help"), blank lines dropped; the server checks each starts with /. */
const paths = (raw: FormDataEntryValue | null) =>
  String(raw ?? '')
    .split(/\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);

/**
 * A website source: one page, a sitemap or a same-site crawl, with `maxPages` and include and
 * exclude path prefixes (docs/knowledge.md). Pages are re-read daily; "Re-sync" in the list
 * re-reads them now.
 */
export function WebsiteForm({ assistantId }: { assistantId: string }) {
  const { t } = useTranslation('knowledge');
  const add = useAddSource(assistantId);
  const [mode, setMode] = useState<Mode>('page');
  const many = mode !== 'page';
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const name = String(f.get('name') ?? '').trim();
    const body: Extract<CreateSourceInput, { type: 'website' }> = {
      type: 'website',
      url: String(f.get('url') ?? '').trim(),
      mode,
      ...(name ? { name } : {}),
    };
    if (many) {
      body.maxPages = Number(f.get('maxPages') ?? 50);
      body.includePaths = paths(f.get('includePaths'));
      body.excludePaths = paths(f.get('excludePaths'));
    }
    add.mutate(body, {
      onSuccess: () => {
        form.reset();
        setMode('page');
      },
    });
  };
  return (
    <form onSubmit={onSubmit} className="stack" aria-label={t('website.form')}>
      <label>
        {t('website.url')}
        <input
          name="url"
          type="url"
          required
          maxLength={2000}
          placeholder="https://example.com/help"
          aria-describedby="url-hint"
        />
      </label>
      <p id="url-hint" className="muted hint">
        {mode === 'sitemap' ? t('website.sitemapHint') : t('website.pageHint')}
      </p>
      <fieldset className="modes">
        <legend>{t('website.what')}</legend>
        <Choices
          name="mode"
          value={mode}
          options={MODES.map((m) => ({ value: m, label: t(`website.modes.${m}`) }))}
          onChange={setMode}
        />
      </fieldset>
      {many && (
        <>
          <label>
            {t('website.maxPages')}
            <input name="maxPages" type="number" min={1} max={1000} defaultValue={50} required />
          </label>
          <label>
            {t('website.include')}
            <textarea name="includePaths" rows={2} placeholder="/help" />
          </label>
          <label>
            {t('website.exclude')}
            <textarea name="excludePaths" rows={2} placeholder="/blog" />
          </label>
        </>
      )}
      <label>
        {t('add.nameOptional')}
        <input name="name" maxLength={200} placeholder={t('website.namePlaceholder')} />
      </label>
      <ErrorText error={add.error} />
      <button type="submit" className="primary" disabled={add.isPending}>
        {t('website.submit')}
      </button>
    </form>
  );
}
