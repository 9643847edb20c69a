import { useTranslation } from 'react-i18next';
import { type LabelRef, textOn } from './types.ts';
import './labels.css';

/**
 * A conversation's or a contact's labels as colored chips (docs/labels.md "Sets"), the text black
 * or white by the color (types.ts `textOn`). Nothing when there are none.
 */
export function LabelChips({ labels, name }: { labels: readonly LabelRef[]; name?: string }) {
  const { t } = useTranslation('labels');
  if (labels.length === 0) return null;
  return (
    <ul className="label-chips" aria-label={name ?? t('chips')}>
      {labels.map((l) => (
        <li key={l.id} className="label-chip" style={{ background: l.color, color: textOn(l.color) }}>
          {l.name}
        </li>
      ))}
    </ul>
  );
}
