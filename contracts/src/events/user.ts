import { z } from 'zod';

export const userStream = (userId: string) => `user-${userId}`;

export const userEventSchemas = {
  UserRegistered: z.object({
    userId: z.string(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
  }),
} as const;

export type UserRegistered = {
  type: 'UserRegistered';
  data: z.infer<typeof userEventSchemas.UserRegistered>;
};
export type UserEvent = UserRegistered;

/** Reservation stream that makes one email one account; appended with expected revision "no stream". */
export const emailReservationEventSchemas = {
  EmailReserved: z.object({ userId: z.string(), email: z.string() }),
} as const;
export type EmailReserved = {
  type: 'EmailReserved';
  data: z.infer<typeof emailReservationEventSchemas.EmailReserved>;
};
