import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Data, post } from '../../api.ts';
import { formatPercent } from '../../i18n/format.ts';
import { i18n } from '../../i18n/index.ts';
import { formatDateTime } from '../../shell/dates.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { useDeleteSource, useSyncSource } from './mutations.ts';
import { formatBytes, isLive, type SourceDetail, typeLabel } from './types.ts';

const passages = (n: number) => i18n.t('knowledge:list.passages', { count: n });

/** The sources of one page of the list; owners and admins also get re-sync and delete. */
export function SourceList(props: { assistantId: string; sources: SourceDetail[]; canEdit: boolean }) {
  const { t } = useTranslation('knowledge');
  return (
    <ul className="list" aria-label={t('list.label')}>
      {props.sources.map((s) => (
        <SourceItem key={s.id} assistantId={props.assistantId} source={s} canEdit={props.canEdit} />
      ))}
    </ul>
  );
}

function SourceItem({
  assistantId,
  source: s,
  canEdit,
}: {
  assistantId: string;
  source: SourceDetail;
  canEdit: boolean;
}) {
  const { t } = useTranslation('knowledge');
  const [confirming, setConfirming] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  // The button that had focus disappears: focus "Cancel" on asking, "Delete" again on cancelling.
  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
    else if (wasConfirming.current) deleteRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  const sync = useSyncSource(assistantId, s.id);
  const remove = useDeleteSource(assistantId, s.id);
  const busy = s.status === 'pending' || s.status === 'processing';
  const live = isLive(s.type);
  // Websites change: re-read on demand. Any indexed source that failed may be tried again.
  const canSync = canEdit && !live && !busy && (s.type === 'website' || s.status === 'failed');
  return (
    <li className="card source" aria-busy={busy}>
      <strong className="source-name">{s.name}</strong> <span className="muted">({typeLabel(s.type)})</span>
      <span className={`badge ${s.status}`}>{t(`statuses.${s.status}`)}</span>
      <span className="muted">{progress(s)}</span>
      <p className="muted source-meta">{describe(s)}</p>
      {s.status === 'failed' && s.error && (
        <p className="error">
          {s.error}
          {s.chunkCount > 0 && ` ${t('list.stillAnswer', { count: s.chunkCount })}`}
        </p>
      )}
      {live && <LiveTest assistantId={assistantId} source={s} />}
      {canEdit && !confirming && (
        <span className="source-actions">
          {canSync && (
            <button
              type="button"
              onClick={() => sync.mutate()}
              disabled={sync.isPending}
              aria-label={
                s.type === 'website'
                  ? t('list.resyncName', { name: s.name })
                  : t('list.tryAgainName', { name: s.name })
              }
            >
              {s.type === 'website' ? t('list.resync') : t('list.tryAgain')}
            </button>
          )}
          <button
            type="button"
            className="danger"
            ref={deleteRef}
            onClick={() => setConfirming(true)}
            aria-label={t('list.deleteName', { name: s.name })}
          >
            {t('list.delete')}
          </button>
        </span>
      )}
      {confirming && (
        <div className="confirm">
          <p>
            {s.chunkCount > 0
              ? t('list.confirmPassages', { name: s.name, count: s.chunkCount })
              : t('list.confirm', { name: s.name })}
          </p>
          <button
            type="button"
            className="danger"
            onClick={() => remove.mutate()}
            disabled={remove.isPending}
          >
            {t('list.deleteForGood')}
          </button>{' '}
          <button
            type="button"
            ref={cancelRef}
            onClick={() => setConfirming(false)}
            disabled={remove.isPending}
          >
            {t('list.cancel')}
          </button>
        </div>
      )}
      <ErrorText error={sync.error ?? remove.error} />
    </li>
  );
}

/** The count of passages, growing while the source is read. */
function progress(s: SourceDetail): string {
  const t = i18n.t;
  if (isLive(s.type)) return t('knowledge:list.live');
  switch (s.status) {
    case 'pending':
      return s.chunkCount > 0
        ? t('knowledge:list.waitingAgain', { passages: passages(s.chunkCount) })
        : t('knowledge:list.waiting');
    case 'processing':
      return t('knowledge:list.reading', { passages: passages(s.chunkCount) });
    case 'failed':
      return s.chunkCount > 0 ? passages(s.chunkCount) : t('knowledge:list.nothing');
    default:
      return s.reindexPending > 0 && s.chunkCount > 0
        ? t('knowledge:list.reindexing', {
            passages: passages(s.chunkCount),
            percent: formatPercent(reindexed(s) / 100, 0),
          })
        : passages(s.chunkCount);
  }
}

/** Share of the passages already embedded by the current model (docs/knowledge.md "Changing the embedder"). */
const reindexed = (s: SourceDetail) =>
  Math.floor((100 * Math.max(0, s.chunkCount - s.reindexPending)) / Math.max(1, s.chunkCount));

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const MODES = ['page', 'sitemap', 'crawl'] as const;
const modeWords = (mode: string) =>
  MODES.find((m) => m === mode) ? i18n.t(`knowledge:describe.modes.${mode as (typeof MODES)[number]}`) : mode;

/** One line of what the source is (never a credential: the server does not return them). */
function describe(s: SourceDetail): string {
  const t = i18n.t;
  const c = s.config;
  const parts: string[] = [];
  switch (s.type) {
    case 'website': {
      parts.push(str(c.url), modeWords(str(c.mode)));
      if (c.mode !== 'page' && typeof c.maxPages === 'number')
        parts.push(t('knowledge:describe.maxPages', { count: c.maxPages }));
      const include = Array.isArray(c.includePaths) ? c.includePaths.join(', ') : '';
      const exclude = Array.isArray(c.excludePaths) ? c.excludePaths.join(', ') : '';
      if (include) parts.push(t('knowledge:describe.only', { paths: include }));
      if (exclude) parts.push(t('knowledge:describe.skipping', { paths: exclude }));
      break;
    }
    case 'file':
      parts.push(str(c.kind).toUpperCase(), typeof c.size === 'number' ? formatBytes(c.size) : '');
      break;
    case 'spreadsheet':
      parts.push(str(c.url));
      break;
    case 'store':
      parts.push(c.platform === 'woocommerce' ? 'WooCommerce' : 'Shopify', str(c.storeUrl));
      break;
    case 'text':
      if (typeof c.characters === 'number')
        parts.push(t('knowledge:describe.characters', { count: c.characters }));
      break;
    case 'qa':
      if (typeof c.pairs === 'number') parts.push(t('knowledge:describe.pairs', { count: c.pairs }));
      break;
  }
  if (s.lastSyncedAt) parts.push(t('knowledge:describe.read', { date: formatDateTime(s.lastSyncedAt) }));
  return parts.filter(Boolean).join(' · ');
}

/** Try a realtime source as the chat would (`POST .../sources/{sid}/lookup`). */
function LiveTest({ assistantId, source }: { assistantId: string; source: SourceDetail }) {
  const { t } = useTranslation('knowledge');
  const lookup = useMutation({
    mutationFn: (body: Record<string, string>) =>
      post<Data<Record<string, unknown>>>(`/api/assistants/${assistantId}/sources/${source.id}/lookup`, body),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const body: Record<string, string> = {};
    for (const [k, v] of new FormData(e.currentTarget)) if (String(v).trim()) body[k] = String(v).trim();
    lookup.mutate(body);
  };
  return (
    <details className="live-test">
      <summary>{t('live.try')}</summary>
      <form onSubmit={onSubmit} className="stack">
        <label>
          {t('live.question')}
          <input name="query" required maxLength={500} />
        </label>
        {source.type === 'store' && (
          <div className="row">
            <label className="grow">
              {t('live.orderNumber')}
              <input name="orderNumber" maxLength={40} />
            </label>
            <label className="grow">
              {t('live.email')}
              <input name="email" type="email" maxLength={254} />
            </label>
          </div>
        )}
        <button type="submit" disabled={lookup.isPending}>
          {t('live.lookUp')}
        </button>
        <ErrorText error={lookup.error} />
        {lookup.data && (
          <>
            <p className="muted">{t('live.result')}</p>
            <pre className="lookup">{JSON.stringify(lookup.data.data, null, 2)}</pre>
          </>
        )}
      </form>
    </details>
  );
}
