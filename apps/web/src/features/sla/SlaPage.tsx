import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { canManage, del } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { SettingsItem } from '../../shell/SettingsItem.tsx';
import { Empty, ErrorText, Loading } from '../../shell/ui.tsx';
import { CHANNEL_WORDS } from '../inbox/types.ts';
import { LabelChips } from '../labels/LabelChips.tsx';
import { type LabelRef, useLabels } from '../labels/types.ts';
import { SlaForm } from './SlaForm.tsx';
import { type SlaPolicy, slaPath, targetsInWords, useSlaPolicies } from './types.ts';
import '../steering/steering.css';
import '../labels/labels.css';
import './sla.css';

/**
 * The workspace's SLA policies (docs/sla.md "Policies"; docs/dashboard.md "Pages"): every member
 * reads them on every plan; owners and admins add, edit and delete them on Pro and Enterprise. A
 * Free workspace sees what it has, and an upgrade note where the form would be.
 */
export function SlaPage() {
  const { t } = useTranslation('sla');
  const { ws = '' } = useParams();
  const workspace = useWorkspaces().data?.data.find((w) => w.id === ws);
  const manage = canManage(workspace?.role);
  const free = workspace?.plan === 'free';
  const [editing, setEditing] = useState<SlaPolicy | null>(null);
  const list = useSlaPolicies(ws);
  const labels = useLabels(ws).data?.data;
  const policies = list.data?.data ?? [];
  return (
    <section>
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <div className="grid">
        <div>
          <h2>{list.data ? t('allCount', { count: policies.length }) : t('all')}</h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {list.isSuccess && policies.length === 0 && (
            <Empty title={t('empty')}>
              <p>{manage && !free ? t('emptyManage') : t('emptyRead')}</p>
            </Empty>
          )}
          {policies.length > 0 && (
            <ol className="list" aria-label={t('list')}>
              {policies.map((p) => (
                <PolicyRow
                  key={p.id}
                  ws={ws}
                  policy={p}
                  labels={labels}
                  manage={manage && !free}
                  onEdit={() => setEditing(p)}
                  onDeleted={() => setEditing((e) => (e?.id === p.id ? null : e))}
                />
              ))}
            </ol>
          )}
        </div>
        {free ? (
          <div className="card stack">
            <h2>{t('upgrade.title')}</h2>
            <p>{t('upgrade.text')}</p>
            <p>
              <Link to={`/w/${ws}/billing`}>
                {workspace?.role === 'owner' ? t('upgrade.owner') : t('upgrade.other')}
              </Link>
            </p>
          </div>
        ) : manage ? (
          <SlaForm key={editing?.id ?? 'new'} ws={ws} editing={editing} onDone={() => setEditing(null)} />
        ) : (
          <p className="muted">{t('readOnly')}</p>
        )}
      </div>
    </section>
  );
}

function PolicyRow(props: {
  ws: string;
  policy: SlaPolicy;
  labels: LabelRef[] | undefined;
  manage: boolean;
  onEdit(): void;
  onDeleted(): void;
}) {
  const { ws, policy: p } = props;
  const { t } = useTranslation('sla');
  const qc = useQueryClient();
  const channels = p.appliesTo.channels ?? [];
  const labelIds = p.appliesTo.labelIds ?? [];
  // A label deleted since the policy was saved is still in it, and matches no conversation.
  const chips = labelIds.map(
    (id) =>
      props.labels?.find((l) => l.id === id) ?? { id, name: t('policy.deletedLabel'), color: '#9ca3af' },
  );
  return (
    <SettingsItem
      className="sla-item"
      name={p.name}
      manage={props.manage}
      question={t('policy.deleteQuestion', { name: p.name })}
      onEdit={props.onEdit}
      onDelete={async () => {
        await del(`${slaPath(ws)}/${p.id}`);
        props.onDeleted();
        await qc.invalidateQueries({ queryKey: ['sla-policies', ws] });
      }}
    >
      <p>
        <strong>{p.name}</strong>{' '}
        <span className="muted">{t('policy.priority', { priority: p.priority })}</span>
      </p>
      <p>{targetsInWords(p)}</p>
      <p className="muted">
        {p.businessHoursOnly ? t('policy.businessHoursOnly') : t('policy.aroundTheClock')}
      </p>
      <p className="sla-applies">
        <span className="muted">{t('policy.appliesTo')}</span>
        {channels.length === 0 && labelIds.length === 0 && t('policy.every')}
        {channels.length > 0 && channels.map((c) => CHANNEL_WORDS[c]).join(', ')}
        {channels.length > 0 && labelIds.length > 0 && t('policy.with')}
        {channels.length === 0 && labelIds.length > 0 && t('policy.conversationsWith')}
        {labelIds.length > 1 && t('policy.anyOf')}
        {labelIds.length > 0 && <LabelChips labels={chips} name={t('policy.labels', { name: p.name })} />}
      </p>
    </SettingsItem>
  );
}
