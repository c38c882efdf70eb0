import type { TokenView } from '@tollgate/contracts';
import { TokenStatus } from '@tollgate/contracts';
import { useDeferredValue, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { PageHeader } from '../../../ui/page-header';
import { Pager } from '../../../ui/pager';
import { EmptyState, ErrorState, Loading } from '../../../ui/query-state';
import { buttonClass, cardClass, inputClass } from '../../../ui/styles';
import { useMoney } from '../../currency/use-money';
import { TOKEN_PAGE_SIZE } from '../tokens-api';
import { useCopyTokenKey, useTokenMutations, useTokens } from '../use-token-queries';
import { TokenFormDialog } from './token-form-dialog';
import { TokenRow } from './token-row';

type Editing = { mode: 'create' } | { mode: 'edit'; token: TokenView } | null;

/** SPEC §2 token screen: list, search, create, edit, enable/disable, delete (confirmed), copy. */
export function TokensScreen() {
  const { t } = useTranslation('tokens');
  const [keyword, setKeyword] = useState('');
  const search = useDeferredValue(keyword.trim());
  const [page, setPage] = useState(1);
  const tokens = useTokens(search, page);
  const total = tokens.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / TOKEN_PAGE_SIZE));
  // Deleting the last key of the last page leaves that page empty: show the one before.
  useEffect(() => {
    if (tokens.data && page > lastPage) setPage(lastPage);
  }, [tokens.data, page, lastPage]);
  const { create, update, toggle, remove } = useTokenMutations();
  const copy = useCopyTokenKey();
  const money = useMoney();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<TokenView | null>(null);

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <button
            type="button"
            className={buttonClass.primary}
            onClick={() => setEditing({ mode: 'create' })}
          >
            {t('create_button')}
          </button>
        }
      />
      <div className={cardClass}>
        <input
          type="search"
          aria-label={t('search_label')}
          placeholder={t('search_placeholder')}
          className={inputClass}
          value={keyword}
          onChange={(e) => {
            setKeyword(e.target.value);
            setPage(1);
          }}
        />
        <div className="mt-4">
          {tokens.isPending && <Loading />}
          {tokens.isError && <ErrorState error={tokens.error} onRetry={() => void tokens.refetch()} />}
          {tokens.data && tokens.data.items.length === 0 && (
            <EmptyState text={search ? t('no_results') : t('empty')} />
          )}
          {tokens.data && tokens.data.items.length > 0 && (
            <>
              <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
                {tokens.data.items.map((token) => (
                  <TokenRow
                    key={token.id}
                    token={token}
                    formatQuota={money.formatQuota}
                    busy={copy.isPending || toggle.isPending}
                    onCopy={() => copy.mutate(token.id)}
                    onEdit={() => setEditing({ mode: 'edit', token })}
                    onToggle={() =>
                      toggle.mutate({ id: token.id, enable: token.status !== TokenStatus.Enabled })
                    }
                    onDelete={() => setDeleting(token)}
                  />
                ))}
              </ul>
              {total > TOKEN_PAGE_SIZE && (
                <Pager page={page} pageSize={TOKEN_PAGE_SIZE} total={total} onPage={setPage} showTotal />
              )}
            </>
          )}
        </div>
      </div>
      <TokenFormDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        token={editing?.mode === 'edit' ? editing.token : undefined}
        busy={create.isPending || update.isPending}
        onSubmit={async (draft) => {
          if (editing?.mode === 'edit') await update.mutateAsync({ id: editing.token.id, draft });
          else await create.mutateAsync(draft);
          setEditing(null);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('delete_title')}
        description={t('delete_text', { name: deleting?.name ?? '' })}
        confirmLabel={t('delete')}
        busy={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, { onSettled: () => setDeleting(null) });
        }}
      />
    </>
  );
}
