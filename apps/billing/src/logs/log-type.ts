import { LogType } from '@tollgate/contracts';
import { LedgerEntryKind } from '../ledger/ledger-entry.entity';

/**
 * The log type of each kind of ledger entry. Usage entries are not listed: settled requests are
 * shown from usage_logs. A kind missing here (added later) is shown as a system line.
 */
export const LEDGER_KIND_LOG_TYPES: Readonly<Record<string, LogType>> = {
  [LedgerEntryKind.TopUp]: LogType.TopUp,
  [LedgerEntryKind.TestTopUp]: LogType.TopUp,
  [LedgerEntryKind.PromoBonus]: LogType.TopUp,
  [LedgerEntryKind.AdminAdjustment]: LogType.Manage,
  [LedgerEntryKind.Refund]: LogType.Refund,
  [LedgerEntryKind.AffiliateReward]: LogType.System,
  [LedgerEntryKind.AffiliateTransfer]: LogType.System,
  [LedgerEntryKind.SignupBonus]: LogType.System,
};

export const UNKNOWN_LEDGER_KIND_LOG_TYPE = LogType.System;

export function ledgerKindLogType(kind: string): LogType {
  return LEDGER_KIND_LOG_TYPES[kind] ?? UNKNOWN_LEDGER_KIND_LOG_TYPE;
}

/**
 * The types shown from usage_logs (a request the upstream failed is an error line, every other one
 * consumption); every other type comes from the ledger.
 */
export const USAGE_LOG_TYPES: ReadonlySet<LogType> = new Set([LogType.Consume, LogType.Error]);
