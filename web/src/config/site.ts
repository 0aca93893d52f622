/**
 * A server may override a default by adding <meta name="wagers:support-email" content="...">
 * to index.html, so a deployment changes its mailboxes without rebuilding the app.
 */
function fromPage(name: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback;
  return (
    document.querySelector<HTMLMetaElement>(`meta[name="wagers:${name}"]`)?.content || fallback
  );
}

/** Product facts shown on several pages; change them here only. */
export const site = {
  name: 'Wagers',
  supportEmail: fromPage('support-email', 'support@wagers.local'),
  privacyEmail: fromPage('privacy-email', 'privacy@wagers.local'),
  legalUpdated: 'October 25, 2025',
  minimumAge: 18,
  liabilityCapUsd: 100,
} as const;

/** What the sender confirms before an SMS invitation goes out (friends screen and bet wizard). */
export const smsConsentText =
  'I confirm this person has agreed to receive a text message from Wagers with my invitation. ' +
  'Standard message and data rates may apply. They can reply STOP to opt out.';

/** What a member agrees to, for their own number, on the profile. */
export const notificationSmsConsentText =
  'Text me the notifications I choose below at this number. Message and data rates may apply. ' +
  'Reply STOP to any text to opt out.';

export const phonePlaceholder = '+1 555 123 4567';
