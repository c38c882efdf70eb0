import { useTranslation } from 'react-i18next';
import { Dialog } from './dialog';
import { buttonClass } from './styles';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
}

/** Asks before something that cannot be undone (deleting a key). */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  busy,
  onConfirm,
}: ConfirmDialogProps) {
  const { t } = useTranslation('common');
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description}>
      <div className="flex justify-end gap-2">
        <button type="button" className={buttonClass.secondary} onClick={() => onOpenChange(false)}>
          {t('cancel')}
        </button>
        <button type="button" className={buttonClass.danger} disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
