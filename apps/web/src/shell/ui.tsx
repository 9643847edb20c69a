import type { ReactNode } from 'react';

/** Small shared pieces: loading, errors in words (docs/dashboard.md), empty states, pagers. */

export const Loading = ({ label = 'Loading…' }: { label?: string }) => (
  <p className="muted" role="status">
    {label}
  </p>
);

export function ErrorText({ error }: { error: unknown }) {
  if (!error) return null;
  const text = error instanceof Error ? error.message : String(error);
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}

export const Empty = ({ title, children }: { title: string; children?: ReactNode }) => (
  <div className="empty">
    <p>
      <strong>{title}</strong>
    </p>
    {children}
  </div>
);

/**
 * Offset paging: "Previous / Next" with the range shown. The range is the page on screen (its
 * own offset), not the one requested: while the next page loads, the list still shows the
 * previous one, and so does the range.
 */
export function Pager(props: {
  page: { offset: number; limit: number; total: number };
  onChange(offset: number): void;
}) {
  const { offset, limit, total } = props.page;
  const { onChange } = props;
  if (total <= limit) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
        Previous
      </button>
      <span>
        {offset + 1}–{Math.min(offset + limit, total)} of {total}
      </span>
      <button type="button" disabled={offset + limit >= total} onClick={() => onChange(offset + limit)}>
        Next
      </button>
    </nav>
  );
}
