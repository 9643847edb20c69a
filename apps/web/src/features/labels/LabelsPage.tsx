import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { canManage, del } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { SettingsItem } from '../../shell/SettingsItem.tsx';
import { Empty, ErrorText, Loading } from '../../shell/ui.tsx';
import { LabelForm } from './LabelForm.tsx';
import { type Label, labelsPath, useLabels } from './types.ts';
import '../steering/steering.css';
import './labels.css';

/**
 * The workspace's labels (docs/labels.md; docs/dashboard.md "Pages"): every member reads them and
 * puts them on conversations and contacts; owners and admins add, edit and delete them.
 */
export function LabelsPage() {
  const { t } = useTranslation('labels');
  const { ws = '' } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const manage = canManage(role);
  const [editing, setEditing] = useState<Label | null>(null);
  const list = useLabels(ws);
  const labels = list.data?.data ?? [];
  return (
    <section>
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <div className="grid">
        <div>
          <h2>{list.data ? t('allCount', { count: labels.length }) : t('all')}</h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {list.isSuccess && labels.length === 0 && (
            <Empty title={t('none')}>
              <p>{manage ? t('noneManage') : t('noneRead')}</p>
            </Empty>
          )}
          {labels.length > 0 && (
            <ul className="list" aria-label={t('list')}>
              {labels.map((l) => (
                <LabelRow
                  key={l.id}
                  ws={ws}
                  label={l}
                  manage={manage}
                  onEdit={() => setEditing(l)}
                  onDeleted={() => setEditing((e) => (e?.id === l.id ? null : e))}
                />
              ))}
            </ul>
          )}
        </div>
        {manage ? (
          <LabelForm key={editing?.id ?? 'new'} ws={ws} editing={editing} onDone={() => setEditing(null)} />
        ) : (
          <p className="muted">{t('readOnly')}</p>
        )}
      </div>
    </section>
  );
}

function LabelRow(props: { ws: string; label: Label; manage: boolean; onEdit(): void; onDeleted(): void }) {
  const { ws, label: l } = props;
  const { t } = useTranslation('labels');
  const qc = useQueryClient();
  return (
    <SettingsItem
      className="label-item"
      name={l.name}
      manage={props.manage}
      question={t('deleteQuestion', { name: l.name })}
      onEdit={props.onEdit}
      onDelete={async () => {
        await del(`${labelsPath(ws)}/${l.id}`);
        props.onDeleted();
        await Promise.all([
          qc.invalidateQueries({ queryKey: ['labels', ws] }),
          qc.invalidateQueries({ queryKey: ['inbox', ws] }),
          qc.invalidateQueries({ queryKey: ['contacts', ws] }),
        ]);
      }}
    >
      <p>
        <span className="label-swatch" style={{ background: l.color }} aria-hidden="true" />
        <strong>{l.name}</strong> <code className="muted">{l.color}</code>
      </p>
      {l.description && <p className="muted">{l.description}</p>}
    </SettingsItem>
  );
}
