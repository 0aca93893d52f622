/**
 * Whose data a personal field holds: a user (named by one of the event's fields), or whoever an
 * email address or phone number belongs to, when that person may have no account yet (a newcomer
 * invited to a bet). Each subject has its own key; deleting an account destroys its user key and
 * the key of its email address (docs/decisions/0018-crypto-shredding.md).
 */
export type DataSubject = { user: string } | 'email-address' | 'phone-number';

const ofUser = (field = 'userId'): DataSubject => ({ user: field });

/**
 * The personal fields of each event type and whose they are. The event store keeps these fields
 * sealed with the subject's key (schemaVersion 2) and reads them back as written, or as null once
 * the key is destroyed. A new event with a personal field is one more line here.
 */
export const personalFields: Readonly<Record<string, Readonly<Record<string, DataSubject>>>> = {
  UserRegistered: { email: ofUser(), firstName: ofUser(), lastName: ofUser() },
  ProfileUpdated: { firstName: ofUser(), lastName: ofUser() },
  AvatarChanged: { avatarUrl: ofUser() },
  PhoneChanged: { phone: ofUser() },
  AccountDeleted: { phones: ofUser() },
  EmailReserved: { email: ofUser() },
  BetProposed: { inviteeEmail: 'email-address', inviteePhone: 'phone-number' },
  InviteSent: {
    inviterName: ofUser('inviterId'),
    inviteeEmail: 'email-address',
    inviteePhone: 'phone-number',
  },
  SmsOptedOut: { phone: 'phone-number' },
  SmsOptedIn: { phone: 'phone-number' },
};

/** The schema version of events whose personal fields are stored sealed. */
export const SEALED_SCHEMA_VERSION = 2;
