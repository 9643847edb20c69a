import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type Data, post } from '../../api.ts';
import { formatDateTime } from '../../shell/dates.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { useDeleteSource, useSyncSource } from './mutations.ts';
import { formatBytes, isLive, type SourceDetail, TYPE_LABEL } from './types.ts';

const passages = (n: number) => `${n} ${n === 1 ? 'passage' : 'passages'}`;

/** The sources of one page of the list; owners and admins also get re-sync and delete. */
export function SourceList(props: { assistantId: string; sources: SourceDetail[]; canEdit: boolean }) {
  return (
    <ul className="list" aria-label="Sources">
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
      <strong className="source-name">{s.name}</strong> <span className="muted">({TYPE_LABEL[s.type]})</span>
      <span className={`badge ${s.status}`}>{s.status}</span>
      <span className="muted">{progress(s)}</span>
      <p className="muted source-meta">{describe(s)}</p>
      {s.status === 'failed' && s.error && (
        <p className="error">
          {s.error}
          {s.chunkCount > 0 && ` The previous ${passages(s.chunkCount)} still answer.`}
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
              aria-label={`${s.type === 'website' ? 'Re-sync' : 'Try again'}: ${s.name}`}
            >
              {s.type === 'website' ? 'Re-sync' : 'Try again'}
            </button>
          )}
          <button
            type="button"
            className="danger"
            ref={deleteRef}
            onClick={() => setConfirming(true)}
            aria-label={`Delete ${s.name}`}
          >
            Delete
          </button>
        </span>
      )}
      {confirming && (
        <div className="confirm">
          <p>
            Delete “{s.name}”{s.chunkCount > 0 ? ` and its ${passages(s.chunkCount)}` : ''}? The assistant
            stops answering from it at once. This cannot be undone.
          </p>
          <button
            type="button"
            className="danger"
            onClick={() => remove.mutate()}
            disabled={remove.isPending}
          >
            Delete for good
          </button>{' '}
          <button
            type="button"
            ref={cancelRef}
            onClick={() => setConfirming(false)}
            disabled={remove.isPending}
          >
            Cancel
          </button>
        </div>
      )}
      <ErrorText error={sync.error ?? remove.error} />
    </li>
  );
}

/** The count of passages, growing while the source is read. */
function progress(s: SourceDetail): string {
  if (isLive(s.type)) return 'read live when a customer asks';
  switch (s.status) {
    case 'pending':
      return s.chunkCount > 0 ? `${passages(s.chunkCount)}; waiting to be read again` : 'waiting to be read';
    case 'processing':
      return `reading: ${passages(s.chunkCount)} so far`;
    case 'failed':
      return s.chunkCount > 0 ? passages(s.chunkCount) : 'nothing indexed';
    default:
      return s.reindexPending > 0 && s.chunkCount > 0
        ? `${passages(s.chunkCount)}; re-indexing for the new embeddings model: ${reindexed(s)}% done`
        : passages(s.chunkCount);
  }
}

/** Share of the passages already embedded by the current model (docs/knowledge.md "Changing the embedder"). */
const reindexed = (s: SourceDetail) =>
  Math.floor((100 * Math.max(0, s.chunkCount - s.reindexPending)) / Math.max(1, s.chunkCount));

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const MODE: Record<string, string> = { page: 'one page', sitemap: 'sitemap', crawl: 'crawl' };

/** One line of what the source is (never a credential: the server does not return them). */
function describe(s: SourceDetail): string {
  const c = s.config;
  const parts: string[] = [];
  switch (s.type) {
    case 'website': {
      parts.push(str(c.url), MODE[str(c.mode)] ?? str(c.mode));
      if (c.mode !== 'page' && typeof c.maxPages === 'number') parts.push(`up to ${c.maxPages} pages`);
      const include = Array.isArray(c.includePaths) ? c.includePaths.join(', ') : '';
      const exclude = Array.isArray(c.excludePaths) ? c.excludePaths.join(', ') : '';
      if (include) parts.push(`only ${include}`);
      if (exclude) parts.push(`skipping ${exclude}`);
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
      if (typeof c.characters === 'number') parts.push(`${c.characters.toLocaleString()} characters`);
      break;
    case 'qa':
      if (typeof c.pairs === 'number') parts.push(`${c.pairs} ${c.pairs === 1 ? 'pair' : 'pairs'}`);
      break;
  }
  if (s.lastSyncedAt) parts.push(`read ${formatDateTime(s.lastSyncedAt)}`);
  return parts.filter(Boolean).join(' · ');
}

/** Try a realtime source as the chat would (`POST .../sources/{sid}/lookup`). */
function LiveTest({ assistantId, source }: { assistantId: string; source: SourceDetail }) {
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
      <summary>Try a question</summary>
      <form onSubmit={onSubmit} className="stack">
        <label>
          Question to try
          <input name="query" required maxLength={500} />
        </label>
        {source.type === 'store' && (
          <div className="row">
            <label className="grow">
              Order number (optional)
              <input name="orderNumber" maxLength={40} />
            </label>
            <label className="grow">
              Customer email (optional)
              <input name="email" type="email" maxLength={254} />
            </label>
          </div>
        )}
        <button type="submit" disabled={lookup.isPending}>
          Look up
        </button>
        <ErrorText error={lookup.error} />
        {lookup.data && (
          <>
            <p className="muted">What the assistant would read:</p>
            <pre className="lookup">{JSON.stringify(lookup.data.data, null, 2)}</pre>
          </>
        )}
      </form>
    </details>
  );
}
