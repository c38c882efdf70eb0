import { Fragment, type Key, type ReactNode } from 'react';
import { Pager } from './pager';
import { EmptyState, ErrorState, Loading } from './query-state';

/** What the table reads from a TanStack query of one page. */
export interface PageQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: { items: readonly T[]; total: number } | undefined;
  refetch: () => unknown;
}

interface PagedTableProps<T> {
  query: PageQuery<T>;
  /** Column headings; an empty string leaves a column (such as the actions') unnamed. */
  headers: readonly ReactNode[];
  rowKey: (item: T) => Key;
  /** The row's `<tr>` (or several, such as a row and its details). */
  row: (item: T) => ReactNode;
  /** Said when the page has no records. */
  empty: string;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
}

/**
 * One page of records: loading, the error with a retry, the empty state, the table and its pager.
 * A failed refetch keeps the page it had under the error, as TanStack Query keeps its data.
 */
export function PagedTable<T>({
  query,
  headers,
  rowKey,
  row,
  empty,
  page,
  pageSize,
  onPage,
}: PagedTableProps<T>) {
  const { data } = query;
  return (
    <>
      {query.isPending ? <Loading /> : null}
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      {data && data.items.length === 0 ? <EmptyState text={empty} /> : null}
      {data && data.items.length > 0 ? (
        <div className="mt-4 overflow-x-auto">
          <table className="min-w-full text-left text-sm">
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                {headers.map((header, index) => (
                  <th key={index} className="px-2 py-2">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.items.map((item) => (
                <Fragment key={rowKey(item)}>{row(item)}</Fragment>
              ))}
            </tbody>
          </table>
          <Pager page={page} pageSize={pageSize} total={data.total} onPage={onPage} showTotal />
        </div>
      ) : null}
    </>
  );
}
