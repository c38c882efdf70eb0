import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { queryKeys } from '../../api/query-keys';
import type { Account } from '../session/session-api';
import { createPayment, fetchPaymentLogs, validatePromo, type PaymentRequest } from './payment-api';

const BALANCE_POLL_MS = 1000;
const BALANCE_POLL_TIMES = 15;

/**
 * The new balance reaches the account through an event, a moment after the payment is credited:
 * read the account again until its balance moves (or give up after 15 s; the next visit shows it).
 */
async function refreshBalanceUntilChanged(
  queryClient: QueryClient,
  before: number | undefined,
): Promise<void> {
  for (let attempt = 0; attempt < BALANCE_POLL_TIMES; attempt++) {
    await queryClient.refetchQueries({ queryKey: queryKeys.self });
    const now = queryClient.getQueryData<Account>(queryKeys.self)?.quota;
    if (now !== undefined && now !== before) return;
    await new Promise((resolve) => setTimeout(resolve, BALANCE_POLL_MS));
  }
}

export function usePaymentLogs(page: number) {
  return useQuery({
    queryKey: queryKeys.paymentPage(page),
    queryFn: () => fetchPaymentLogs(page),
    placeholderData: keepPreviousData,
  });
}

export function useValidatePromo() {
  return useMutation({ mutationFn: (code: string) => validatePromo(code) });
}

/** Creates the payment; the balance and the history are read again whatever happened. */
export function useCreatePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: PaymentRequest) => createPayment(request),
    onMutate: () => queryClient.getQueryData<Account>(queryKeys.self)?.quota,
    onSuccess: (created, _request, quotaBefore) => {
      if (created.status === 'success' || created.status === 'test_success') {
        void refreshBalanceUntilChanged(queryClient, quotaBefore);
      }
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.payments });
    },
  });
}
