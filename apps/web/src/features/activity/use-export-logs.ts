import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { notify } from '../shell/notify';
import { exportLogs, type LogExportFormat, type LogFilters } from './activity-api';

/** SPEC §8: 429 says to wait 10 seconds; any other failure the server's words or a fallback text. */
export function exportErrorText(error: unknown, t: (key: string) => string): string {
  if (isApiError(error) && error.status === 429) return t('export_too_many');
  if (isApiError(error) && error.message) return error.message;
  return t('export_failed');
}

export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function useExportLogs() {
  const { t } = useTranslation('activity');
  return useMutation({
    mutationFn: async ({
      filters,
      format,
      fileName,
    }: {
      filters: LogFilters;
      format: LogExportFormat;
      fileName: string;
    }) => {
      saveBlob(await exportLogs(filters, format), fileName);
    },
    onSuccess: () => notify.success(t('export_done')),
    onError: (error) => notify.destructive(exportErrorText(error, t)),
  });
}
