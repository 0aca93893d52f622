import { z } from 'zod';

export const userStream = (userId: string) => `user-${userId}`;

/**
 * Personal fields (personal-data.ts) are stored sealed with the person's key and read back as
 * written; once the account is deleted and its key destroyed they read as null.
 */
export const userEventSchemas = {
  UserRegistered: z.object({
    userId: z.string(),
    email: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
  }),
  ProfileUpdated: z.object({
    userId: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
  }),
  /** `avatarUrl` is where the product serves the picture (a path on this site or the object store's URL). */
  AvatarChanged: z.object({ userId: z.string(), avatarUrl: z.string().nullable() }),
  /**
   * E.164 `phone` or null (removed; also once the account's key is destroyed); `consentedAt`
   * (ISO) is when SMS consent was given, else null.
   */
  PhoneChanged: z.object({
    userId: z.string(),
    phone: z.string().nullable(),
    smsConsent: z.boolean(),
    consentedAt: z.string().nullable(),
  }),
  /**
   * The person deleted their account. `emailDigest` (SHA-256 of the lowercased address, as the
   * reservation stream's name has it) lets the erasure find what is keyed by the address without
   * the address itself. `phones`: the account's number (E.164), sealed with the account's key
   * like any of its personal fields, for the erasure to destroy the number's own key (invitations
   * to it) and clear it from the read models; empty without one, null once erased, absent on
   * deletions recorded before it was added. Not a digest: a number's digest is the number.
   */
  AccountDeleted: z.object({
    userId: z.string(),
    emailDigest: z.string(),
    phones: z.array(z.string()).nullable().optional(),
  }),
} as const;

export type UserRegistered = {
  type: 'UserRegistered';
  data: z.infer<typeof userEventSchemas.UserRegistered>;
};
export type ProfileUpdated = {
  type: 'ProfileUpdated';
  data: z.infer<typeof userEventSchemas.ProfileUpdated>;
};
export type AvatarChanged = {
  type: 'AvatarChanged';
  data: z.infer<typeof userEventSchemas.AvatarChanged>;
};
export type PhoneChanged = {
  type: 'PhoneChanged';
  data: z.infer<typeof userEventSchemas.PhoneChanged>;
};
export type AccountDeleted = {
  type: 'AccountDeleted';
  data: z.infer<typeof userEventSchemas.AccountDeleted>;
};
export type UserEvent =
  UserRegistered | ProfileUpdated | AvatarChanged | PhoneChanged | AccountDeleted;

/** Reservation stream that makes one email one account; appended with expected revision "no stream". */
export const emailReservationEventSchemas = {
  /** `email` reads as null once the account is deleted. */
  EmailReserved: z.object({ userId: z.string(), email: z.string().nullable() }),
  /** The account was deleted: the address is free for a new account. */
  EmailReleased: z.object({ userId: z.string() }),
} as const;
export type EmailReserved = {
  type: 'EmailReserved';
  data: z.infer<typeof emailReservationEventSchemas.EmailReserved>;
};
export type EmailReleased = {
  type: 'EmailReleased';
  data: z.infer<typeof emailReservationEventSchemas.EmailReleased>;
};
export type EmailReservationEvent = EmailReserved | EmailReleased;
