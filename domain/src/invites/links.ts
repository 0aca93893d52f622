import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';

/** The name of the key in `signing_keys` that signs invite links. */
export const INVITE_LINK_KEY = 'invite-links';

/** The page a newcomer opens to see and accept an invite. */
export const inviteLink = (publicUrl: string, linkCode: string) =>
  `${publicUrl.replace(/\/$/, '')}/invite/${linkCode}`;

const signature = (key: KeyObject, code: string) =>
  createHmac('sha256', key).update(`invite-link:${code}`).digest('base64url').slice(0, 22);

/**
 * The code an invite's link carries: the invite's code, which the event log holds and anyone who
 * reads the log sees, then a dot and its signature, which only a holder of the key can make.
 */
export const signedLinkCode = (key: KeyObject, code: string) => `${code}.${signature(key, code)}`;

/** The form of a link's code: an invite's code, alone or with a signature of 22 characters. */
const linkCodePattern = /^([\w-]{16,64})(?:\.([\w-]{22}))?$/;

/**
 * The invite a link's code names, and whether it came signed; null when it cannot name an invite
 * or its signature is not the key's. A code without a signature opens only an invite sent before
 * links were signed (InviteSent without `signedLink`): the decider and the invite page check that.
 */
export function readLinkCode(
  key: KeyObject,
  linkCode: string,
): { code: string; signed: boolean } | null {
  const match = linkCodePattern.exec(linkCode);
  if (!match) return null;
  const code = match[1]!;
  const given = match[2];
  if (given === undefined) return { code, signed: false };
  const expected = Buffer.from(signature(key, code));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  return { code, signed: true };
}

/** Invite links as the services hand them out and read them back, with the key they sign with. */
export interface InviteLinks {
  /** The code and link to hand out for an invite: signed, unless it was sent before links were. */
  linkFor(code: string, signedLink: boolean): Promise<{ code: string; inviteLink: string }>;
  /** The invite a link's code names, as readLinkCode reads it. */
  read(linkCode: string): Promise<{ code: string; signed: boolean } | null>;
}

export function inviteLinks(key: () => Promise<KeyObject>, publicUrl: () => string): InviteLinks {
  return {
    async linkFor(code, signedLink) {
      const linkCode = signedLink ? signedLinkCode(await key(), code) : code;
      return { code: linkCode, inviteLink: inviteLink(publicUrl(), linkCode) };
    },
    async read(linkCode) {
      return readLinkCode(await key(), linkCode);
    },
  };
}
