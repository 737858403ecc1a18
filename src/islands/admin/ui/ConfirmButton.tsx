import * as AlertDialog from "@radix-ui/react-alert-dialog";
import type { ReactNode } from "react";

interface Props {
  /** The trigger's accessible name, e.g. "Delete My post". */
  label: string;
  children: ReactNode;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  /** The trigger's look, when it is a text button rather than the red icon button. */
  triggerClassName?: string;
}

/** A button that asks before it does something that cannot be undone. */
export function ConfirmButton({
  label,
  children,
  title,
  description,
  confirmLabel,
  onConfirm,
  disabled,
  triggerClassName = "admin-icon-button admin-danger",
}: Props) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger className={triggerClassName} aria-label={label} title={label} disabled={disabled}>
        {children}
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="admin-overlay" />
        <AlertDialog.Content className="admin-dialog card">
          <AlertDialog.Title className="section-title text-xl">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-3">{description}</AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-3">
            <AlertDialog.Cancel className="btn btn-light py-2 text-sm">Cancel</AlertDialog.Cancel>
            <AlertDialog.Action className="btn py-2 text-sm" onClick={onConfirm}>
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
