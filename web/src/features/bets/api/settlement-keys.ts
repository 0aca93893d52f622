import { getSettleUpQueryOptions } from './get-settle-up.ts';
import { getSettlementQueryOptions } from './get-settlement.ts';

/** What a settling-up command changes: the bet's settlement and the dashboard's Settle up card. */
export const settlementKeys = (betId: string) => [
  getSettlementQueryOptions(betId).queryKey,
  getSettleUpQueryOptions().queryKey,
];
