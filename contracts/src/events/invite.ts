import { z } from 'zod';

export const inviteStream = (code: string) => `invite-${code}`;

const channel = z.enum(['email', 'sms']);
export type InviteChannel = z.infer<typeof channel>;

export const inviteEventSchemas = {
  InviteSent: z.object({
    code: z.string(),
    inviterId: z.string(),
    /**
     * The inviter's display name when the invite was sent, for the message the notifier writes;
     * null once the inviter's account is deleted.
     */
    inviterName: z.string().nullable(),
    inviteeEmail: z.string().nullable(),
    /** E.164, e.g. +14155550123. */
    inviteePhone: z.string().nullable(),
    /** Who confirmed the invitee agreed to receive SMS, and when; present exactly when a phone is. */
    smsConsent: z.object({ givenBy: z.string(), givenAt: z.string() }).nullable(),
    betId: z.string().nullable(),
    message: z.string().nullable(),
    /** Hash of the request's content when it came with an Idempotency-Key. */
    requestHash: z.string().optional(),
    /**
     * The invite opens only with its signed link (`{code}.{signature}`): the code alone, which
     * this log holds, does not. Absent on invites sent before links were signed.
     */
    signedLink: z.literal(true).optional(),
  }),
  /**
   * `sequence`: for a bet's invite, which of the bet's resends this is (absent for direct resends).
   * `signedLink`: the resend goes out with a signed link, and from then on only that link opens
   * the invite, one sent before links were signed included (absent on resends made before).
   */
  InviteResent: z.object({
    code: z.string(),
    sequence: z.number().int().positive().optional(),
    signedLink: z.literal(true).optional(),
  }),
  /**
   * From now on only a signed link opens the invite, and none was sent: an operator closed an
   * invite sent before links were signed that could not be sent again (its number has opted out
   * of texts). The inviter can still send it again, which sends a signed link.
   */
  InviteSealed: z.object({ code: z.string() }),
  InviteAccepted: z.object({
    code: z.string(),
    inviterId: z.string(),
    acceptedBy: z.string(),
    betId: z.string().nullable(),
  }),
  /** `deliveryId` is the id of the InviteSent or InviteResent event the notifier delivered. */
  InviteDelivered: z.object({ code: z.string(), deliveryId: z.string(), channel }),
  InviteDeliveryFailed: z.object({
    code: z.string(),
    deliveryId: z.string(),
    channel,
    reason: z.string(),
  }),
} as const;

type Of<Type extends keyof typeof inviteEventSchemas> = {
  type: Type;
  data: z.infer<(typeof inviteEventSchemas)[Type]>;
};
export type InviteSent = Of<'InviteSent'>;
export type InviteResent = Of<'InviteResent'>;
export type InviteSealed = Of<'InviteSealed'>;
export type InviteAccepted = Of<'InviteAccepted'>;
export type InviteDelivered = Of<'InviteDelivered'>;
export type InviteDeliveryFailed = Of<'InviteDeliveryFailed'>;
export type InviteEvent =
  | InviteSent
  | InviteResent
  | InviteSealed
  | InviteAccepted
  | InviteDelivered
  | InviteDeliveryFailed;

/**
 * One stream per phone number (hashed, so stream names do not list numbers) holding its SMS
 * opt-out: STOP from the phone opts out, START opts back in.
 */
export const smsOptOutEventSchemas = {
  SmsOptedOut: z.object({ phone: z.string().nullable(), keyword: z.string() }),
  SmsOptedIn: z.object({ phone: z.string().nullable(), keyword: z.string() }),
} as const;
export type SmsOptedOut = {
  type: 'SmsOptedOut';
  data: z.infer<typeof smsOptOutEventSchemas.SmsOptedOut>;
};
export type SmsOptedIn = {
  type: 'SmsOptedIn';
  data: z.infer<typeof smsOptOutEventSchemas.SmsOptedIn>;
};
export type SmsOptOutEvent = SmsOptedOut | SmsOptedIn;
