import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../i18n/format.ts';

/** Small shared pieces: loading, errors in words (docs/dashboard.md), empty states, pagers. */

export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <p className="muted" role="status">
      {label ?? t('ui.loading')}
    </p>
  );
}

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
  const { t } = useTranslation();
  if (total <= limit) return null;
  return (
    <nav className="pager" aria-label={t('ui.pages')}>
      <button type="button" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
        {t('ui.previous')}
      </button>
      <span>
        {t('ui.range', {
          from: formatNumber(offset + 1),
          to: formatNumber(Math.min(offset + limit, total)),
          total: formatNumber(total),
        })}
      </span>
      <button type="button" disabled={offset + limit >= total} onClick={() => onChange(offset + limit)}>
        {t('ui.next')}
      </button>
    </nav>
  );
}

/** One choice among `options` as radio buttons named `name`, each in a "check" label. */
export function Choices<V extends string | boolean>(props: {
  name: string;
  value: V;
  options: ReadonlyArray<{ value: V; label: ReactNode }>;
  onChange(value: NoInfer<V>): void;
}) {
  return props.options.map((o) => (
    <label key={String(o.value)} className="check">
      <input
        type="radio"
        name={props.name}
        checked={props.value === o.value}
        onChange={() => props.onChange(o.value)}
      />
      {o.label}
    </label>
  ));
}

/** A checkbox in a "check" label: on or off, said in `children`. */
export function Check(props: { checked: boolean; onChange(on: boolean): void; children: ReactNode }) {
  return (
    <label className="check">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      {props.children}
    </label>
  );
}
