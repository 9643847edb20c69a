import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../../shell/ui.tsx';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { type ItemHandlers, type ItemKind, useDeleteItem } from './items.ts';

/**
 * One rule, answer or test in its list, named by `name`: its content, then for owners and admins
 * (`handlers` is null for others) Edit and Delete ("Edit Refunds", "Delete Refunds"), with any
 * `controls` before them.
 */
export function ItemCard(props: {
  kind: ItemKind;
  assistantId: string;
  id: string;
  name: string;
  handlers: ItemHandlers | null;
  /** The question Delete asks, and the button that confirms it. */
  confirm: { question: string; label: string };
  controls?: ReactNode;
  /** An error of the item's own actions, shown before Delete's. */
  error?: unknown;
  children: ReactNode;
}) {
  const { name, handlers, confirm } = props;
  const { t } = useTranslation();
  const remove = useDeleteItem(props.kind, props.assistantId, props.id, () => handlers?.onDeleted());
  return (
    <CardFrame
      name={name}
      error={props.error ?? remove.error}
      actions={
        handlers && (
          <>
            {props.controls ?? <span />}
            <span className="links">
              <button
                type="button"
                onClick={handlers.onEdit}
                aria-label={t('settingsItem.editName', { name })}
              >
                {t('settingsItem.edit')}
              </button>
              <ConfirmButton
                label={t('settingsItem.delete')}
                ariaLabel={t('settingsItem.deleteName', { name })}
                question={confirm.question}
                confirmLabel={confirm.label}
                pending={remove.isPending}
                onConfirm={() => remove.mutate()}
              />
            </span>
          </>
        )
      }
    >
      {props.children}
    </CardFrame>
  );
}

/** An item of a steering list named by `name`: its content, a row of `actions` when there are any, an error. */
export function CardFrame(props: {
  name: string;
  actions?: ReactNode;
  error?: unknown;
  children: ReactNode;
}) {
  return (
    <li className="card st-item" aria-label={props.name}>
      {props.children}
      {props.actions && <div className="row st-actions">{props.actions}</div>}
      <ErrorText error={props.error} />
    </li>
  );
}
