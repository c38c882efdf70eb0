import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/query-keys';
import { createPayment, fetchPaymentLogs, validatePromo, type PaymentRequest } from './payment-api';

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
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.payments });
      void queryClient.invalidateQueries({ queryKey: queryKeys.self });
    },
  });
}
