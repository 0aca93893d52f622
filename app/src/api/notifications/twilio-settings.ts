import twilio from 'twilio';

/** A test Twilio account: the app's settings point its client at a local stand-in. */
export const accountSid = `AC${'0123456789abcdef'.repeat(2)}`;
export const authToken = 'test-auth-token-0123456789';
export const fromNumber = '+15005550006';

/** The app's TWILIO_* settings for the stand-in at `apiUrl`. */
export const twilioEnv = (apiUrl: string) => ({
  TWILIO_ACCOUNT_SID: accountSid,
  TWILIO_AUTH_TOKEN: authToken,
  TWILIO_FROM_NUMBER: fromNumber,
  TWILIO_API_URL: apiUrl,
});

/** Posts to the SMS webhook as Twilio would, signed with the account's auth token. */
export function postInbound(appUrl: string, params: Record<string, string>, signature?: string) {
  const url = `${appUrl}/api/sms/inbound`;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature ?? twilio.getExpectedTwilioSignature(authToken, url, params),
    },
    body: new URLSearchParams(params).toString(),
  });
}
