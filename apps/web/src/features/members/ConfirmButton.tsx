import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A destructive action in two steps (remove a member, revoke a key): the first click asks the
 * question in place, the second does it. Focus moves to the confirming button, and back to the
 * first one on Cancel, so keyboard users never lose their place.
 */
export function ConfirmButton(props: {
  /** The first button's text, e.g. "Remove". */
  label: string;
  /** Its accessible name when the text alone is ambiguous, e.g. "Remove Ada Lovelace". */
  ariaLabel?: string;
  question: string;
  confirmLabel: string;
  pending?: boolean;
  onConfirm(): void;
}) {
  const { label, ariaLabel, question, confirmLabel, pending, onConfirm } = props;
  const { t } = useTranslation('members');
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (wasAsking.current) first.current?.focus();
    wasAsking.current = asking;
  }, [asking]);
  if (!asking) {
    return (
      <button
        ref={first}
        type="button"
        className="danger"
        aria-label={ariaLabel}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of two buttons, not a form field set
    <span className="confirm" role="group" aria-label={question}>
      <span>{question}</span>
      <button ref={confirm} type="button" className="danger" disabled={pending} onClick={onConfirm}>
        {confirmLabel}
      </button>
      <button type="button" onClick={() => setAsking(false)} disabled={pending}>
        {t('confirm.cancel')}
      </button>
    </span>
  );
}
