import { useTranslation } from 'react-i18next';
import type { Member } from '../members/types.ts';

export type Availability = Member['availability'];

/**
 * A member's availability as a dot and a word (docs/workspaces.md "Availability"): the word says
 * it, so the color is never the only sign; the dot is hidden from screen readers.
 */
export function AvailabilityTag({ availability }: { availability: Availability }) {
  const { t } = useTranslation('inbox');
  return (
    <span className={`presence presence-${availability}`}>
      <span className="presence-dot" aria-hidden="true" />
      {t(`availability.${availability}`)}
    </span>
  );
}
