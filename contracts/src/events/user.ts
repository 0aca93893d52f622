import { z } from 'zod';

export const userStream = (userId: string) => `user-${userId}`;

export const userEventSchemas = {
  UserRegistered: z.object({
    userId: z.string(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
  }),
  ProfileUpdated: z.object({ userId: z.string(), firstName: z.string(), lastName: z.string() }),
  /** `avatarUrl` is where the product serves the picture (a path on this site or the object store's URL). */
  AvatarChanged: z.object({ userId: z.string(), avatarUrl: z.string() }),
  /** E.164 `phone` or null (removed); `consentedAt` (ISO) is when SMS consent was given, else null. */
  PhoneChanged: z.object({
    userId: z.string(),
    phone: z.string().nullable(),
    smsConsent: z.boolean(),
    consentedAt: z.string().nullable(),
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
export type UserEvent = UserRegistered | ProfileUpdated | AvatarChanged | PhoneChanged;

/** Reservation stream that makes one email one account; appended with expected revision "no stream". */
export const emailReservationEventSchemas = {
  EmailReserved: z.object({ userId: z.string(), email: z.string() }),
} as const;
export type EmailReserved = {
  type: 'EmailReserved';
  data: z.infer<typeof emailReservationEventSchemas.EmailReserved>;
};
