import { LogType } from '@tollgate/contracts';
import { LedgerEntryKind } from '../ledger/ledger-entry.entity';
import { ledgerKindLogType } from './log-type';

describe('log types', () => {
  it('maps every ledger kind but usage to its new-api type', () => {
    expect(ledgerKindLogType(LedgerEntryKind.TopUp)).toBe(LogType.TopUp);
    expect(ledgerKindLogType(LedgerEntryKind.TestTopUp)).toBe(LogType.TopUp);
    expect(ledgerKindLogType(LedgerEntryKind.PromoBonus)).toBe(LogType.TopUp);
    expect(ledgerKindLogType(LedgerEntryKind.AdminAdjustment)).toBe(LogType.Manage);
    expect(ledgerKindLogType(LedgerEntryKind.Refund)).toBe(LogType.Refund);
    expect(ledgerKindLogType(LedgerEntryKind.AffiliateReward)).toBe(LogType.System);
  });

  it('shows a kind added later as a system line', () => {
    expect(ledgerKindLogType('some_future_kind')).toBe(LogType.System);
  });
});
