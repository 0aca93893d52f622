import type { Pool } from 'pg';
import twilio from 'twilio';
import RequestClient from 'twilio/lib/base/RequestClient.js';

export interface SmsSender {
  send(to: string, body: string): Promise<void>;
}

export interface TwilioSettings {
  accountSid?: string;
  authToken?: string;
  from?: string;
  /** Sends the REST calls here instead of https://api.twilio.com. */
  apiUrl?: string;
}

/** twilio's own HTTP client, with the API origin swapped: the requests are the real ones. */
class RedirectingRequestClient extends RequestClient {
  constructor(private readonly apiUrl: string) {
    super();
  }
  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    const uri = opts.uri.replace(/^https:\/\/[^/]*twilio\.com/, this.apiUrl.replace(/\/$/, ''));
    return super.request({ ...opts, uri });
  }
}

/**
 * Twilio when its settings are complete; otherwise the development outbox table, readable at
 * /dev/sms, so nothing leaves the machine.
 */
export function createSmsSender(
  settings: TwilioSettings,
  pool: Pool,
): SmsSender & { kind: 'twilio' | 'outbox' } {
  const { accountSid, authToken, from, apiUrl } = settings;
  if (accountSid && authToken && from) {
    const client = twilio(
      accountSid,
      authToken,
      apiUrl ? { httpClient: new RedirectingRequestClient(apiUrl) } : {},
    );
    return {
      kind: 'twilio',
      async send(to, body) {
        await client.messages.create({ to, from, body });
      },
    };
  }
  return {
    kind: 'outbox',
    async send(to, body) {
      await pool.query(
        `INSERT INTO dev_outbox (channel, recipient, text_body) VALUES ('sms', $1, $2)`,
        [to, body],
      );
    },
  };
}
