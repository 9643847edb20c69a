import type { CreateSourceInput, WebsiteMode } from '@parley/contract/api-types';
import { type FormEvent, useState } from 'react';
import { ErrorText } from '../../shell/ui.tsx';
import { useAddSource } from './mutations.ts';

type Mode = WebsiteMode;

const MODES: Array<{ mode: Mode; label: string }> = [
  { mode: 'page', label: 'Just this page' },
  { mode: 'sitemap', label: 'The pages of a sitemap' },
  { mode: 'crawl', label: 'Crawl the site from this page' },
];

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
    <form onSubmit={onSubmit} className="stack" aria-label="Add a website">
      <label>
        Website address
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
        {mode === 'sitemap'
          ? 'The address of the sitemap, e.g. https://example.com/sitemap.xml.'
          : 'Only pages of this same site are read, and robots.txt is respected.'}
      </p>
      <fieldset className="modes">
        <legend>What to read</legend>
        {MODES.map((m) => (
          <label key={m.mode} className="check">
            <input type="radio" name="mode" checked={mode === m.mode} onChange={() => setMode(m.mode)} />
            {m.label}
          </label>
        ))}
      </fieldset>
      {many && (
        <>
          <label>
            Most pages to read
            <input name="maxPages" type="number" min={1} max={1000} defaultValue={50} required />
          </label>
          <label>
            Only paths starting with (optional, one a line)
            <textarea name="includePaths" rows={2} placeholder="/help" />
          </label>
          <label>
            Skip paths starting with (optional, one a line)
            <textarea name="excludePaths" rows={2} placeholder="/blog" />
          </label>
        </>
      )}
      <label>
        Name (optional)
        <input name="name" maxLength={200} placeholder="The address, if left empty" />
      </label>
      <ErrorText error={add.error} />
      <button type="submit" className="primary" disabled={add.isPending}>
        Add website
      </button>
    </form>
  );
}
