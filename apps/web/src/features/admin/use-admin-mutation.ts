import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/error-message';
import { readAgain } from '../../api/query-client';
import { notify } from '../shell/notify';

interface AdminMutationOptions<TVariables, TResult> {
  mutationFn: (variables: TVariables) => Promise<TResult>;
  /** What to read again once the call ended, whatever its outcome. */
  refresh: readonly QueryKey[];
  /** The success toast, when the change deserves one. */
  success?: (result: TResult, variables: TVariables) => string;
  onSuccess?: (result: TResult, variables: TVariables) => void;
}

/** An admin screen's change: a toast on success if asked for, the server's words on failure, then a refresh. */
export function useAdminMutation<TVariables, TResult = void>(
  options: AdminMutationOptions<TVariables, TResult>,
) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: options.mutationFn,
    onSuccess: (result: TResult, variables: TVariables) => {
      if (options.success) notify.success(options.success(result, variables));
      options.onSuccess?.(result, variables);
    },
    onError: (error: unknown) =>
      notify.destructive(t('action_failed'), { description: errorMessage(error, t) }),
    onSettled: () => Promise.all(options.refresh.map((queryKey) => readAgain(queryClient, queryKey))),
  });
}
