import type { ReactNode } from 'react';
import { Modal } from './modal';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  /** The confirming button's label ("Delete"). */
  confirmLabel: string;
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A yes/no question in an accessible modal; Cancel gets the focus, so Enter never confirms by accident. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  pending = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Modal
      open={open}
      onClose={onCancel}
      title={title}
      footer={
        <ul className="usa-button-group">
          <li className="usa-button-group__item">
            <button
              type="button"
              className="usa-button usa-button--secondary"
              disabled={pending}
              onClick={onConfirm}
            >
              {confirmLabel}
            </button>
          </li>
          <li className="usa-button-group__item">
            <button
              type="button"
              className="usa-button usa-button--unstyled padding-105 text-center"
              data-autofocus
              onClick={onCancel}
            >
              Cancel
            </button>
          </li>
        </ul>
      }
    >
      <div className="usa-prose">{children}</div>
    </Modal>
  );
}
