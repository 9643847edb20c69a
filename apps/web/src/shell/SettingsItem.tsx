import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../features/members/ConfirmButton.tsx';
import { ErrorText } from './ui.tsx';

/**
 * One item of a settings list (labels, canned responses, SLA policies): what it says, then for
 * owners and admins Edit and Delete side by side, Delete asking first in place; a failed
 * deletion is said under it.
 */
export function SettingsItem(props: {
  className: string;
  /** How the buttons name it for screen readers: "Edit VIP", "Delete VIP". */
  name: string;
  manage: boolean;
  /** The confirmation asked before deleting. */
  question: string;
  onEdit(): void;
  /** Deletes it: the API call, then whatever must be read again. */
  onDelete(): Promise<unknown>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const remove = useMutation({ mutationFn: props.onDelete });
  return (
    <li className={`card settings-item ${props.className}`}>
      {props.children}
      {props.manage && (
        <div className="row settings-actions">
          <button
            type="button"
            onClick={props.onEdit}
            aria-label={t('settingsItem.editName', { name: props.name })}
          >
            {t('settingsItem.edit')}
          </button>
          <ConfirmButton
            label={t('settingsItem.delete')}
            ariaLabel={t('settingsItem.deleteName', { name: props.name })}
            question={props.question}
            confirmLabel={t('settingsItem.delete')}
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </div>
      )}
      <ErrorText error={remove.error} />
    </li>
  );
}
