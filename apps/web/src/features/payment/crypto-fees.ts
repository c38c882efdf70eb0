/**
 * SPEC §9 network fees for crypto top-ups, in US dollars, as the network's own approximate cost.
 * The texts (`fee_<id>`) are in the payment namespace; the order is the table's.
 */
export const CRYPTO_NETWORK_FEES = [
  { id: 'trc20', network: 'TRC-20 (Tron)' },
  { id: 'ethereum', network: 'Ethereum (ERC-20)' },
  { id: 'bsc', network: 'BSC (BEP-20)' },
  { id: 'ton', network: 'TON' },
  { id: 'solana', network: 'Solana' },
  { id: 'bitcoin', network: 'Bitcoin' },
  { id: 'l2', network: 'Arbitrum, Optimism, Base' },
] as const;
