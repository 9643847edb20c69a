import { keepPreviousData, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { Fragment, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { get, type OffsetPage } from '../../api.ts';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { type ItemHandlers, type ItemKind, itemsKey } from './items.ts';
import { SteeringHeader, useManager } from './shared.tsx';
import { LIMITS, steeringPath } from './types.ts';

const PAGE_SIZE = 50;

/** One page of an assistant's rules, answers or tests, and the offset to move to another. */
export type ItemsPage<T> = { query: UseQueryResult<OffsetPage<T>>; setOffset(offset: number): void };

export function useItemsPage<T>(kind: ItemKind, assistantId: string): ItemsPage<T> {
  const [offset, setOffset] = useState(0);
  const query = useQuery({
    queryKey: [...itemsKey(kind, assistantId), offset],
    queryFn: () =>
      get<OffsetPage<T>>(`${steeringPath(assistantId, kind)}?limit=${PAGE_SIZE}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  return { query, setOffset };
}

/**
 * A steering page's list with the form beside it: the heading with the count and the limit,
 * loading, errors, the empty state, the items, the pager, and the form (owners and admins only)
 * for a new item or the one being edited.
 */
export function ItemsSection<T extends { id: string }>(props: {
  /** The list's heading, e.g. "Rules": "Rules (3 of at most 100)", or "(3)" without a limit. */
  title: string;
  limit?: number;
  page: ItemsPage<T>;
  /** The list's accessible name. */
  label: string;
  /** Owners and admins, who get Edit, Delete and the form; others only read. */
  manager: boolean;
  /** The empty state's title, and its words for owners and admins and for others. */
  empty: { title: string; manager: string; member: string };
  /** `handlers` is null for those who only read. */
  renderItem(item: T, handlers: ItemHandlers | null): ReactNode;
  renderForm(editing: T | null, onDone: () => void): ReactNode;
}) {
  const { title, limit, page: p, manager, empty } = props;
  const { t } = useTranslation('steering');
  const [editing, setEditing] = useState<T | null>(null);
  const page = p.query.data;
  const stopEditing = () => setEditing(null);
  return (
    <div className="grid st-layout">
      <div>
        <h2>
          {page && page.total > 0
            ? limit === undefined
              ? t('section.counted', { title, count: page.total })
              : t('section.countedLimit', { title, count: page.total, limit })
            : title}
        </h2>
        {p.query.isPending && <Loading />}
        <ErrorText error={p.query.error} />
        {page?.total === 0 && (
          <Empty title={empty.title}>
            <p>{manager ? empty.manager : empty.member}</p>
          </Empty>
        )}
        {page && page.data.length > 0 && (
          <ul className="list" aria-label={props.label}>
            {page.data.map((item) => (
              <Fragment key={item.id}>
                {props.renderItem(
                  item,
                  manager
                    ? {
                        onEdit: () => setEditing(item),
                        onDeleted: () => setEditing((e) => (e?.id === item.id ? null : e)),
                      }
                    : null,
                )}
              </Fragment>
            ))}
          </ul>
        )}
        {page && <Pager page={page} onChange={p.setOffset} />}
      </div>
      {manager && <Fragment key={editing?.id ?? 'new'}>{props.renderForm(editing, stopEditing)}</Fragment>}
    </div>
  );
}

/** Where a steering page is: its workspace and assistant, and whether the reader manages them. */
export type SteeringPlace = { ws: string; id: string; manager: boolean };

/**
 * A whole page of an assistant's rules, answers or tests: the header with its introduction (the
 * kind's `title` and `intro` words), anything the page adds below it, and the list with the form
 * (the kind's `list` and `empty` words, its limit).
 */
export function SteeringItemsPage<T extends { id: string }>(props: {
  kind: ItemKind;
  /** The list's heading ("Rules", "Answers", "Tests"). */
  listTitle: string;
  /** Shown between the header and the list, given the list's total (the tests' runs). */
  between?(place: SteeringPlace, total: number): ReactNode;
  renderItem(item: T, handlers: ItemHandlers | null, place: SteeringPlace): ReactNode;
  renderForm(editing: T | null, onDone: () => void, place: SteeringPlace): ReactNode;
}) {
  const { kind } = props;
  const { t } = useTranslation('steering');
  const { ws = '', id = '' } = useParams();
  const { manager } = useManager(ws);
  const page = useItemsPage<T>(kind, id);
  const place = { ws, id, manager };
  return (
    <section>
      <SteeringHeader ws={ws} id={id} title={t(`${kind}.title`)}>
        {t(`${kind}.intro`)}
      </SteeringHeader>
      {props.between?.(place, page.query.data?.total ?? 0)}
      <ItemsSection
        title={props.listTitle}
        limit={LIMITS[kind]}
        page={page}
        label={t(`${kind}.list`)}
        manager={manager}
        empty={{
          title: t(`${kind}.empty.title`),
          manager: t(`${kind}.empty.manager`),
          member: t(`${kind}.empty.member`),
        }}
        renderItem={(item, handlers) => props.renderItem(item, handlers, place)}
        renderForm={(editing, onDone) => props.renderForm(editing, onDone, place)}
      />
    </section>
  );
}
