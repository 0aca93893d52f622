/** How many times something may happen per key in a window. README "Limits" lists these. */
export interface LimitRule {
  max: number;
  windowSeconds: number;
  /** What the caller is told when they reach it. */
  message: string;
}

const HOUR = 3600;
const DAY = 24 * HOUR;

export const limitRules = {
  /** Invitations (email or SMS, new or resent) one person sends. */
  'invites-per-sender': {
    max: 20,
    windowSeconds: HOUR,
    message: 'You have sent many invitations in the last hour. Please try again later.',
  },
  /** Invitations one email address receives, from everyone together. */
  'invites-per-email': {
    max: 3,
    windowSeconds: DAY,
    message: 'This address has received several invitations today. Please try again tomorrow.',
  },
  /** Invitations one phone number receives, from everyone together. */
  'invites-per-phone': {
    max: 3,
    windowSeconds: DAY,
    message: 'This number has received several invitations today. Please try again tomorrow.',
  },
  /** Text messages one person's invitations cost: SMS is paid for. */
  'sms-per-sender': {
    max: 10,
    windowSeconds: DAY,
    message: 'You have sent the most SMS invitations allowed for today. Invite by email instead.',
  },
  /**
   * Friend requests one person sends: each emails its receiver with the sender's own name, and a
   * search finds 20 people at a time. Asking back (which accepts) counts too.
   */
  'friend-requests-per-sender': {
    max: 20,
    windowSeconds: HOUR,
    message: 'You have sent many friend requests in the last hour. Please try again later.',
  },
  'friend-requests-per-sender-per-day': {
    max: 50,
    windowSeconds: DAY,
    message: 'You have sent the most friend requests allowed for today. Please try again tomorrow.',
  },
  /**
   * Notification texts (a bet's news, not invitations) one phone number receives in a day, for
   * everyone together: a number is not verified (decision 20), so anyone could name another
   * person's, and friends' bets would then text it. Counted by the notifier before each text; past
   * it the text is dropped, the email still goes.
   */
  'texts-per-number': {
    max: 20,
    windowSeconds: DAY,
    message: 'This number has received the most notification texts allowed for today.',
  },
  'searches-per-user': {
    max: 60,
    windowSeconds: 60,
    message: 'Too many searches in a minute. Please wait a moment.',
  },
  /** Picture upload links one person asks for; each can leave up to 5 MB until it expires. */
  'avatar-uploads-per-user': {
    max: 20,
    windowSeconds: HOUR,
    message: 'Too many picture uploads in the last hour. Please try again later.',
  },
} satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof limitRules;
