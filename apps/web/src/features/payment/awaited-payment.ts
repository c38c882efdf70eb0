/**
 * The payment the payer left for the provider's page. The provider sends them back to a fixed
 * address that names no payment, so the tab remembers which one to report on (for the tab only:
 * another tab or a later visit has nothing to report).
 */
const AWAITED_PAYMENT_KEY = 'tollgate.awaited_payment';

export function rememberAwaitedPayment(paymentId: number, storage: Storage = sessionStorage): void {
  storage.setItem(AWAITED_PAYMENT_KEY, String(paymentId));
}

export function readAwaitedPayment(storage: Storage = sessionStorage): number | null {
  const id = Number(storage.getItem(AWAITED_PAYMENT_KEY));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function forgetAwaitedPayment(storage: Storage = sessionStorage): void {
  storage.removeItem(AWAITED_PAYMENT_KEY);
}
