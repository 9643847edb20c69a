import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { type Data, del, get, type OffsetPage, patch, post } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';
import { useWorkspaces } from '../../session.ts';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { LabelChips } from '../labels/LabelChips.tsx';
import { LabelPicker } from '../labels/LabelPicker.tsx';
import { useLabels } from '../labels/types.ts';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { type Contact, contactsPath, explain } from './types.ts';
import './crm.css';
import { formatDate } from '../../shell/dates.ts';

const LIMIT = 20;

/**
 * The workspace's CRM contacts (docs/dashboard.md "Contacts and tickets"): search, create, edit,
 * delete. Every member reads; guests are offered no change (the API refuses them).
 */
export function ContactsPage() {
  const { t } = useTranslation('contacts');
  const { ws = '' } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const canWrite = role !== undefined && role !== 'guest';
  const [offset, setOffset] = useState(0);
  const [q, setQ] = useState('');
  // The label filter is kept in the address (`?label=lbl_…`), as the inbox keeps its filters.
  const [params, setParams] = useSearchParams();
  const labelId = params.get('label') ?? '';
  const labels = useLabels(ws);
  const labelName = labels.data?.data.find((l) => l.id === labelId)?.name;
  const list = useQuery({
    queryKey: ['contacts', ws, q, labelId, offset],
    queryFn: () =>
      get<OffsetPage<Contact>>(
        `${contactsPath(ws)}?limit=${LIMIT}&offset=${offset}${q ? `&q=${encodeURIComponent(q)}` : ''}${
          labelId ? `&labelId=${encodeURIComponent(labelId)}` : ''
        }`,
      ),
    placeholderData: keepPreviousData,
  });
  // Deleting the last contact of a later page would leave an empty page: step back.
  const past = Boolean(list.data) && offset > 0 && offset >= (list.data?.total ?? 0);
  useEffect(() => {
    if (past) setOffset((o) => Math.max(0, o - LIMIT));
  }, [past]);
  const onSearch = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setQ(String(new FormData(e.currentTarget).get('q') ?? '').trim());
    setOffset(0);
  };
  return (
    <section>
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <div className="grid">
        <div>
          <search>
            <form className="row crm-search" onSubmit={onSearch} aria-label={t('search')}>
              <label className="grow">
                <span className="sr-only">{t('search')}</span>
                <input name="q" type="search" maxLength={200} placeholder={t('searchPlaceholder')} />
              </label>
              <button type="submit">{t('searchButton')}</button>
            </form>
          </search>
          <label className="crm-label-filter">
            {t('label')}
            <select
              value={labelId}
              onChange={(e) => {
                setParams(e.target.value ? { label: e.target.value } : {}, { replace: true });
                setOffset(0);
              }}
            >
              <option value="">{t('any')}</option>
              {labels.data?.data.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
          <h2>
            {q ? t('matching', { q }) : t('all')}
            {labelName ? t('labeled', { name: labelName }) : ''}
            {list.data ? t('count', { count: list.data.total }) : ''}
          </h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {list.data?.total === 0 && (
            <Empty title={q || labelId ? t('noMatch') : t('none')}>
              <p>{q || labelId ? t('noMatchText') : t('noneText')}</p>
            </Empty>
          )}
          {list.data && list.data.data.length > 0 && (
            <ul className="list" aria-label={t('list')}>
              {list.data.data.map((c) => (
                <ContactRow key={c.id} ws={ws} contact={c} canWrite={canWrite} />
              ))}
            </ul>
          )}
          {list.data && <Pager page={list.data} onChange={setOffset} />}
        </div>
        {canWrite ? <ContactForm ws={ws} /> : <p className="muted">{t('guests')}</p>}
      </div>
    </section>
  );
}

const label = (c: Contact) => c.name ?? c.email ?? c.phone ?? i18n.t('contacts:unnamed');

/** A body from the form: empty fields left out on create, cleared (null) on edit. */
function bodyOf(form: HTMLFormElement, editing: boolean) {
  const f = new FormData(form);
  const body: Record<string, string | null> = {};
  for (const k of ['name', 'email', 'phone']) {
    const v = String(f.get(k) ?? '').trim();
    if (v) body[k] = v;
    else if (editing) body[k] = null;
  }
  return body;
}

function ContactRow({ ws, contact: c, canWrite }: { ws: string; contact: Contact; canWrite: boolean }) {
  const { t } = useTranslation('contacts');
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const save = useMutation({
    mutationFn: (body: Record<string, string | null>) =>
      patch<Data<Contact>>(`${contactsPath(ws)}/${c.id}`, body),
    onSuccess: () => {
      setEditing(false);
      void qc.invalidateQueries({ queryKey: ['contacts', ws] });
    },
  });
  const remove = useMutation({
    mutationFn: () => del(`${contactsPath(ws)}/${c.id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['contacts', ws] }),
  });
  if (editing) {
    return (
      <li className="card">
        <form
          className="stack"
          aria-label={t('edit', { name: label(c) })}
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(bodyOf(e.currentTarget, true));
          }}
        >
          <Fields contact={c} />
          <ErrorText error={explain(save.error, 'contacts')} />
          <div className="row">
            <button type="submit" className="primary" disabled={save.isPending}>
              {t('save')}
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              {t('cancel')}
            </button>
          </div>
        </form>
      </li>
    );
  }
  return (
    <li className="card crm-item">
      <p>
        <strong>{label(c)}</strong> <span className="badge">{c.source}</span>
      </p>
      <p className="muted">
        {t('added', {
          reach: [c.email, c.phone].filter(Boolean).join(' · ') || t('noReach'),
          date: formatDate(c.createdAt),
        })}
      </p>
      <LabelChips labels={c.labels} name={t('labelsOf', { name: label(c) })} />
      {Object.keys(c.customFields).length > 0 && (
        <dl className="crm-fields">
          {Object.entries(c.customFields).map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{String(v)}</dd>
            </div>
          ))}
        </dl>
      )}
      {canWrite && (
        <details className="crm-labels">
          <summary>{t('setLabels')}</summary>
          <LabelPicker
            ws={ws}
            path={`${contactsPath(ws)}/${c.id}/labels`}
            labels={c.labels}
            canWrite
            of={label(c)}
            onSaved={() => void qc.invalidateQueries({ queryKey: ['contacts', ws] })}
          />
        </details>
      )}
      {canWrite && (
        <div className="row crm-actions">
          <button type="button" onClick={() => setEditing(true)} aria-label={t('edit', { name: label(c) })}>
            {t('editButton')}
          </button>
          <ConfirmButton
            label={t('delete')}
            ariaLabel={t('deleteName', { name: label(c) })}
            question={t('deleteQuestion', { name: label(c) })}
            confirmLabel={t('delete')}
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </div>
      )}
      <ErrorText error={remove.error} />
    </li>
  );
}

function Fields({ contact }: { contact?: Contact }) {
  const { t } = useTranslation('contacts');
  return (
    <>
      <label>
        {t('name')}
        <input name="name" maxLength={200} defaultValue={contact?.name ?? ''} autoComplete="off" />
      </label>
      <label>
        {t('email')}
        <input
          name="email"
          type="email"
          maxLength={254}
          defaultValue={contact?.email ?? ''}
          autoComplete="off"
        />
      </label>
      <label>
        {t('phone')}
        <input
          name="phone"
          type="tel"
          maxLength={40}
          defaultValue={contact?.phone ?? ''}
          placeholder="+14155550100"
          autoComplete="off"
        />
      </label>
    </>
  );
}

function ContactForm({ ws }: { ws: string }) {
  const { t } = useTranslation('contacts');
  const qc = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: Record<string, string | null>) => post<Data<Contact>>(contactsPath(ws), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['contacts', ws] }),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = bodyOf(form, false);
    if (Object.keys(body).length === 0) {
      setProblem(t('giveSomething'));
      return;
    }
    setProblem(null);
    create.mutate(body, { onSuccess: () => form.reset() });
  };
  return (
    <form className="card stack" onSubmit={onSubmit} aria-labelledby="new-contact-title">
      <h2 id="new-contact-title">{t('add')}</h2>
      <Fields />
      <ErrorText error={problem ?? explain(create.error, 'contacts')} />
      <div>
        <button type="submit" className="primary" disabled={create.isPending}>
          {t('addButton')}
        </button>
      </div>
    </form>
  );
}
