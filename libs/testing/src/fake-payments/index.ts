export {
  startFakeYookassa,
  type FakeYookassa,
  type FakeYookassaPayment,
  type FakeYookassaRefund,
  type FakeYookassaStatus,
} from './fake-yookassa.server';
export {
  startFakeCrypto,
  type FakeCrypto,
  type FakeCryptoInvoice,
  type FakeCryptoStatus,
} from './fake-crypto.server';
