import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
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
      <h1>SLA policies</h1>
      <p className="muted">
        How fast a person answers and how soon a conversation is settled, in minutes. When a conversation is
        handed to a person, the first policy in this list that applies to it sets its clocks.
      </p>
      <div className="grid">
        <div>
          <h2>All policies{list.data ? ` (${policies.length})` : ''}</h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {list.isSuccess && policies.length === 0 && (
            <Empty title="No SLA policies yet">
              <p>
                {manage && !free
                  ? 'Add one with the form: a name, at least one target and, if it is not for every conversation, the channels or labels it is for.'
                  : 'Owners and admins add them on the Pro and Enterprise plans.'}
              </p>
            </Empty>
          )}
          {policies.length > 0 && (
            <ol className="list" aria-label="SLA policies, the first that applies wins">
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
            <h2>SLA policies need the Pro or Enterprise plan</h2>
            <p>
              This workspace is on the Free plan: it can read its policies but not add or change them, and no
              clocks run. The workspace’s owner can upgrade it; the upgrade takes effect at once.
            </p>
            <p>
              <Link to={`/w/${ws}/billing`}>
                {workspace?.role === 'owner'
                  ? 'Upgrade on the Billing page'
                  : 'See the plans on the Billing page'}
              </Link>
            </p>
          </div>
        ) : manage ? (
          <SlaForm key={editing?.id ?? 'new'} ws={ws} editing={editing} onDone={() => setEditing(null)} />
        ) : (
          <p className="muted">Everyone sees the policies and their clocks; owners and admins change them.</p>
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
  const qc = useQueryClient();
  const channels = p.appliesTo.channels ?? [];
  const labelIds = p.appliesTo.labelIds ?? [];
  // A label deleted since the policy was saved is still in it, and matches no conversation.
  const chips = labelIds.map(
    (id) => props.labels?.find((l) => l.id === id) ?? { id, name: 'Deleted label', color: '#9ca3af' },
  );
  return (
    <SettingsItem
      className="sla-item"
      name={p.name}
      manage={props.manage}
      question={`Delete ${p.name}? Conversations it was chosen for are left without a policy.`}
      onEdit={props.onEdit}
      onDelete={async () => {
        await del(`${slaPath(ws)}/${p.id}`);
        props.onDeleted();
        await qc.invalidateQueries({ queryKey: ['sla-policies', ws] });
      }}
    >
      <p>
        <strong>{p.name}</strong> <span className="muted">· priority {p.priority}</span>
      </p>
      <p>{targetsInWords(p)}</p>
      <p className="muted">{p.businessHoursOnly ? 'Business hours only' : 'Around the clock'}</p>
      <p className="sla-applies">
        <span className="muted">Applies to: </span>
        {channels.length === 0 && labelIds.length === 0 && 'every conversation'}
        {channels.length > 0 && channels.map((c) => CHANNEL_WORDS[c]).join(', ')}
        {channels.length > 0 && labelIds.length > 0 && ', with '}
        {channels.length === 0 && labelIds.length > 0 && 'conversations with '}
        {labelIds.length > 1 && 'any of '}
        {labelIds.length > 0 && <LabelChips labels={chips} name={`Labels of ${p.name}`} />}
      </p>
    </SettingsItem>
  );
}
