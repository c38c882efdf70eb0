import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TokenStatus } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/error-message';
import { readAgain } from '../../api/query-client';
import { queryKeys } from '../../api/query-keys';
import { copyText } from '../../lib/clipboard';
import { notify } from '../shell/notify';
import { createToken, deleteToken, fetchTokenKey, fetchTokens, updateToken } from './tokens-api';
import type { TokenDraft } from './token-draft';

/** One page of the keys; the page before stays on screen while the next one loads. */
export function useTokens(keyword: string, page: number) {
  return useQuery({
    queryKey: [...queryKeys.tokenList(keyword), page],
    queryFn: () => fetchTokens(keyword, page),
    placeholderData: keepPreviousData,
  });
}

/** Create, update, toggle and delete, each saying how it went and refreshing the list. */
export function useTokenMutations() {
  const { t } = useTranslation('tokens');
  const queryClient = useQueryClient();
  const refresh = () => readAgain(queryClient, queryKeys.tokens);
  const fail = (text: string) => (error: unknown) =>
    notify.destructive(text, { description: errorMessage(error, t) });

  const create = useMutation({
    mutationFn: (draft: TokenDraft) => createToken(draft),
    onSuccess: () => notify.success(t('created')),
    onError: fail(t('create_failed')),
    onSettled: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, draft }: { id: number; draft: TokenDraft }) => updateToken(id, draft),
    onSuccess: () => notify.success(t('updated')),
    onError: fail(t('update_failed')),
    onSettled: refresh,
  });
  const toggle = useMutation({
    mutationFn: ({ id, enable }: { id: number; enable: boolean }) =>
      updateToken(id, { status: enable ? TokenStatus.Enabled : TokenStatus.Disabled }),
    onSuccess: (token) =>
      notify.success(token.status === TokenStatus.Enabled ? t('enabled_done') : t('disabled_done')),
    onError: fail(t('update_failed')),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteToken(id),
    onSuccess: () => notify.success(t('deleted')),
    onError: fail(t('delete_failed')),
    onSettled: refresh,
  });
  return { create, update, toggle, remove };
}

/** Reads the whole key and copies it, with SPEC §8's messages for each outcome. */
export function useCopyTokenKey() {
  const { t } = useTranslation('tokens');
  return useMutation({
    mutationFn: async (id: number) => copyText(await fetchTokenKey(id)),
    onSuccess: (result) => {
      if (result === 'copied') notify.success(t('key_copied'));
      else if (result === 'unsupported') notify.destructive(t('copy_unsupported'));
      else notify.destructive(t('copy_failed'));
    },
    onError: (error) => notify.destructive(t('copy_failed'), { description: errorMessage(error, t) }),
  });
}
