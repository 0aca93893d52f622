import { z } from 'zod';
import { userSchema } from './user.ts';

export const paymentStatuses = ['unpaid', 'marked_paid', 'confirmed'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/** GET /api/bets/{id}/settlement: who pays whom on a completed money bet with a winner. */
export const settlementSchema = z.object({
  betId: z.string(),
  title: z.string(),
  amountCents: z.number().int(),
  /** Dollars with two decimals. */
  amount: z.string(),
  winnerId: z.string(),
  loserId: z.string(),
  status: z.enum(paymentStatuses),
});
export type Settlement = z.infer<typeof settlementSchema>;

/** One friend on the dashboard's Settle up card: the net over every bet not yet confirmed paid. */
export const settleUpEntrySchema = z.object({
  friend: userSchema,
  /** Positive: the friend owes you; negative: you owe the friend. */
  netCents: z.number().int(),
  /** The absolute net in dollars with two decimals. */
  netAmount: z.string(),
  bets: z.array(settlementSchema),
});
export type SettleUpEntry = z.infer<typeof settleUpEntrySchema>;

/** GET /api/settle-up. */
export const settleUpSchema = z.array(settleUpEntrySchema);
