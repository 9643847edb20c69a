import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorText } from '../../shell/ui.tsx';
import { LabelChips } from './LabelChips.tsx';
import { type LabelRef, putLabels, useLabels } from './types.ts';
import './labels.css';

type PickerProps = {
  ws: string;
  path: string;
  labels: readonly LabelRef[];
  canWrite: boolean;
  /** Names the group for screen readers: "Labels of …". */
  of: string;
  onSaved(labels: LabelRef[]): void;
};

/**
 * The workspace's labels as checkboxes; each change PUTs the whole set to `path` (docs/labels.md
 * "Sets") and hands the answer to `onSaved`. Without `canWrite`, the chips only.
 */
export function LabelPicker(props: PickerProps) {
  // A new set from the server (this change's answer, another member's, live) starts afresh.
  return <Picker key={props.labels.map((l) => l.id).join(',')} {...props} />;
}

function Picker(props: PickerProps) {
  const { ws, labels, canWrite } = props;
  const { t } = useTranslation('labels');
  const all = useLabels(ws);
  // The set asked for shows at once, until the conversation or the contact comes back with it.
  const [want, setWant] = useState<string[] | null>(null);
  const save = useMutation({
    mutationFn: (ids: string[]) => putLabels(props.path, ids),
    onMutate: (ids) => setWant(ids),
    onSuccess: (res) => props.onSaved(res.data),
    onError: () => setWant(null),
  });
  if (!canWrite) {
    return labels.length ? (
      <LabelChips labels={labels} name={t('of', { name: props.of })} />
    ) : (
      <p className="muted">{t('noLabels')}</p>
    );
  }
  const options = all.data?.data ?? [];
  const have = new Set(want ?? labels.map((l) => l.id));
  const toggle = (id: string, on: boolean) => {
    // In the order the workspace lists them, so a set reads the same wherever it was made.
    const ids = options.map((o) => o.id).filter((o) => (o === id ? on : have.has(o)));
    save.mutate(ids);
  };
  return (
    <>
      <ErrorText error={all.error} />
      {all.isSuccess && options.length === 0 && (
        <p className="muted">
          <Trans t={t} i18nKey="noneYet" components={{ a: <Link to={`/w/${ws}/labels`} /> }} />
        </p>
      )}
      {options.length > 0 && (
        <fieldset className="label-picker stack" aria-label={t('of', { name: props.of })}>
          {options.map((o) => (
            <label key={o.id} className="check">
              <input
                type="checkbox"
                checked={have.has(o.id)}
                disabled={save.isPending}
                onChange={(e) => toggle(o.id, e.target.checked)}
              />
              <span className="label-swatch" style={{ background: o.color }} aria-hidden="true" />
              {o.name}
            </label>
          ))}
        </fieldset>
      )}
      <ErrorText error={save.error} />
    </>
  );
}
