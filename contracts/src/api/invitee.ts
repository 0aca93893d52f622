import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { emailSchema } from './auth.ts';
import { BET_MESSAGES } from './bet-rules.ts';

/**
 * Who may be invited, the one set of rules POST /api/bets, POST /api/invites and the web forms
 * apply: exactly one of an email or a phone, the email well formed, the phone written
 * internationally (with its +country code, since no country can be guessed) and texted only with
 * the sender's confirmation that its owner agreed, and never the sender's own address or number.
 */
export const INVITEE_MESSAGES = {
  emailOrPhone: 'Please enter an email or phone number',
  notBoth: BET_MESSAGES.emailOrPhone,
  email: 'Enter a valid email address',
  phone: 'Enter the phone number in international format, e.g. +1 415 555 0123',
  smsConsent: BET_MESSAGES.smsConsent,
  self: 'You cannot invite yourself',
} as const;

export type InviteeField = 'inviteeEmail' | 'inviteePhone' | 'smsConsent';

export interface InviteeInput {
  inviteeEmail?: string | null;
  inviteePhone?: string | null;
  smsConsent?: boolean | null;
}

/** Normalised: the email lowercased, the phone in E.164; exactly one of the two is set. */
export type Invitee = { email: string; phone: null } | { email: null; phone: string };

/** Why an invitee is refused, and the fields it is about. */
export type InviteeRefusal = {
  rule: keyof typeof INVITEE_MESSAGES;
  message: string;
  fields: InviteeField[];
};

export type InviteeCheck = { ok: true; invitee: Invitee } | { ok: false; refusal: InviteeRefusal };

const refuse = (rule: keyof typeof INVITEE_MESSAGES, ...fields: InviteeField[]): InviteeCheck => ({
  ok: false,
  refusal: { rule, message: INVITEE_MESSAGES[rule], fields },
});

/** The email, lowercased, if it is one; null if it is not. */
export function normaliseInviteeEmail(email: string): string | null {
  const parsed = emailSchema.safeParse(email);
  return parsed.success ? parsed.data : null;
}

/** The phone in E.164 if it is a valid number written with its +country code; null if not. */
export function normaliseInviteePhone(phone: string): string | null {
  const trimmed = phone.trim();
  const number = parsePhoneNumberFromString(trimmed);
  return trimmed.startsWith('+') && number?.isValid() ? number.number : null;
}

/** Whether an invite to this email would reach the person sending it. */
export const isOwnEmail = (inviteeEmail: string | null, senderEmail: string | null) =>
  inviteeEmail !== null && senderEmail !== null && inviteeEmail === senderEmail.toLowerCase();

/** Whether an invite to this number (E.164, as both are kept) would reach the person sending it. */
export const isOwnPhone = (inviteePhone: string | null, senderPhone: string | null) =>
  inviteePhone !== null && inviteePhone === senderPhone;

/**
 * Checks an invitee in the order a person fixes them: one channel, its format, the consent a
 * phone needs. With `sender`, also refuses the sender's own email or number (the server knows
 * both; a form may know only the email).
 */
export function checkInvitee(
  input: InviteeInput,
  sender?: { email?: string | null; phone?: string | null },
): InviteeCheck {
  const email = input.inviteeEmail?.trim() ?? '';
  const phone = input.inviteePhone?.trim() ?? '';
  if (email && phone) return refuse('notBoth', 'inviteeEmail', 'inviteePhone');
  if (!email && !phone) return refuse('emailOrPhone', 'inviteeEmail', 'inviteePhone');
  if (email) {
    const normalised = normaliseInviteeEmail(email);
    if (normalised === null) return refuse('email', 'inviteeEmail');
    if (isOwnEmail(normalised, sender?.email ?? null)) return refuse('self', 'inviteeEmail');
    return { ok: true, invitee: { email: normalised, phone: null } };
  }
  const normalised = normaliseInviteePhone(phone);
  if (normalised === null) return refuse('phone', 'inviteePhone');
  if (isOwnPhone(normalised, sender?.phone ?? null)) return refuse('self', 'inviteePhone');
  if (input.smsConsent !== true) return refuse('smsConsent', 'smsConsent');
  return { ok: true, invitee: { email: null, phone: normalised } };
}
