import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { canManage, del, get, type OffsetPage } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { SettingsItem } from '../../shell/SettingsItem.tsx';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { CannedForm } from './CannedForm.tsx';
import { type Canned, cannedPath } from './types.ts';
import '../steering/steering.css';
import './canned.css';

const LIMIT = 20;

/**
 * The workspace's canned responses (docs/canned-responses.md; docs/dashboard.md "Pages"): search
 * (`?q=`, kept in the address), offset pages, and for owners and admins add, edit and delete.
 * Every member reads them, since everyone who answers uses them in the reply box.
 */
export function CannedPage() {
  const { t } = useTranslation('canned');
  const { ws = '' } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const manage = canManage(role);
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<Canned | null>(null);
  const list = useQuery({
    queryKey: ['canned', ws, 'page', q, offset],
    queryFn: () =>
      get<OffsetPage<Canned>>(
        `${cannedPath(ws)}?limit=${LIMIT}&offset=${offset}${q ? `&q=${encodeURIComponent(q)}` : ''}`,
      ),
    placeholderData: keepPreviousData,
  });
  // Deleting the last one of a later page would leave an empty page: step back.
  const past = Boolean(list.data) && offset > 0 && offset >= (list.data?.total ?? 0);
  useEffect(() => {
    if (past) setOffset((o) => Math.max(0, o - LIMIT));
  }, [past]);
  const onSearch = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const want = String(new FormData(e.currentTarget).get('q') ?? '').trim();
    setParams(want ? { q: want } : {});
    setOffset(0);
  };
  return (
    <section>
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <div className="grid">
        <div>
          <search>
            <form className="row canned-search" onSubmit={onSearch} aria-label={t('search')}>
              <label className="grow">
                <span className="sr-only">{t('search')}</span>
                <input
                  key={q}
                  name="q"
                  type="search"
                  maxLength={100}
                  defaultValue={q}
                  placeholder={t('searchPlaceholder')}
                />
              </label>
              <button type="submit">{t('searchButton')}</button>
            </form>
          </search>
          <h2>
            {list.data
              ? t('counted', { heading: q ? t('matching', { q }) : t('all'), count: list.data.total })
              : q
                ? t('matching', { q })
                : t('all')}
          </h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {list.data?.total === 0 && (
            <Empty title={q ? t('noMatch') : t('none')}>
              <p>{q ? t('noMatchText') : manage ? t('noneManage') : t('noneRead')}</p>
            </Empty>
          )}
          {list.data && list.data.data.length > 0 && (
            <ul className="list" aria-label={t('list')}>
              {list.data.data.map((c) => (
                <CannedRow
                  key={c.id}
                  ws={ws}
                  canned={c}
                  manage={manage}
                  onEdit={() => setEditing(c)}
                  onDeleted={() => setEditing((e) => (e?.id === c.id ? null : e))}
                />
              ))}
            </ul>
          )}
          {list.data && <Pager page={list.data} onChange={setOffset} />}
        </div>
        {manage ? (
          <CannedForm key={editing?.id ?? 'new'} ws={ws} editing={editing} onDone={() => setEditing(null)} />
        ) : (
          <p className="muted">{t('readOnly')}</p>
        )}
      </div>
    </section>
  );
}

function CannedRow(props: {
  ws: string;
  canned: Canned;
  manage: boolean;
  onEdit(): void;
  onDeleted(): void;
}) {
  const { ws, canned: c } = props;
  const { t } = useTranslation('canned');
  const qc = useQueryClient();
  return (
    <SettingsItem
      className="canned-item"
      name={`/${c.shortcut}`}
      manage={props.manage}
      question={t('deleteQuestion', { shortcut: c.shortcut })}
      onEdit={props.onEdit}
      onDelete={async () => {
        await del(`${cannedPath(ws)}/${c.id}`);
        props.onDeleted();
        await qc.invalidateQueries({ queryKey: ['canned', ws] });
      }}
    >
      <p>
        <code className="canned-shortcut">/{c.shortcut}</code> <strong>{c.title}</strong>
      </p>
      <p className="canned-content">{c.content}</p>
    </SettingsItem>
  );
}
