import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { readAgain } from '../../api/query-client';
import { queryKeys } from '../../api/query-keys';
import type { Account } from '../session/session-api';
import { forgetAwaitedPayment, readAwaitedPayment } from './awaited-payment';
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

/** How often, and for how long, a payment the payer came back from is read again while pending. */
const AWAITED_POLL_MS = 2000;
const AWAITED_POLL_FOR_MS = 10 * 60_000;

/**
 * A page of the history; the first one is read again every 2 s while `awaitedId` is pending there
 * (for 10 minutes at most), since the provider's notification may come after the payer returns.
 */
export function usePaymentLogs(page: number, awaitedId: number | null = null) {
  const [pollUntil] = useState(() => Date.now() + AWAITED_POLL_FOR_MS);
  return useQuery({
    queryKey: queryKeys.paymentPage(page),
    queryFn: () => fetchPaymentLogs(page),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      if (page !== 1 || awaitedId === null || Date.now() > pollUntil) return false;
      const awaited = query.state.data?.items.find((item) => item.id === awaitedId);
      return awaited?.status === 'pending' ? AWAITED_POLL_MS : false;
    },
  });
}

/**
 * The payment the payer came back from, as the history knows it (undefined while unknown or when
 * there is none), and a way to stop reporting on it. Its success brings the new balance in.
 */
export function useAwaitedPayment() {
  const queryClient = useQueryClient();
  const [awaitedId, setAwaitedId] = useState(() => readAwaitedPayment());
  const logs = usePaymentLogs(1, awaitedId);
  const payment = awaitedId === null ? undefined : logs.data?.items.find((item) => item.id === awaitedId);
  const settledStatus = payment && payment.status !== 'pending' ? payment.status : undefined;
  const sawPending = useRef(false);
  if (payment?.status === 'pending') sawPending.current = true;
  useEffect(() => {
    if (settledStatus === undefined) return;
    // Reported once: a reload or a later visit does not show it again.
    forgetAwaitedPayment();
    if (settledStatus !== 'success') return;
    // Credited while the page watched: the balance read on arrival is the old one until the event lands.
    if (sawPending.current) {
      void refreshBalanceUntilChanged(queryClient, queryClient.getQueryData<Account>(queryKeys.self)?.quota);
    } else {
      void readAgain(queryClient, queryKeys.self);
    }
  }, [settledStatus, queryClient]);
  const dismiss = () => {
    forgetAwaitedPayment();
    setAwaitedId(null);
  };
  return { payment, dismiss };
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
      void readAgain(queryClient, queryKeys.payments);
    },
  });
}
