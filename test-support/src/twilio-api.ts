import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface TwilioRequest {
  method: string;
  path: string;
  authorization: string;
  form: Record<string, string>;
}

/** An error answer as Twilio's API gives it: an HTTP status and a JSON body with its error code. */
export interface TwilioRefusal {
  status: number;
  code: number;
  message: string;
}

/**
 * What Twilio answers a request made with credentials it does not accept (a wrong or rotated auth
 * token, an API key revoked): 401 with its error 20003.
 */
export const authenticationRefusal: TwilioRefusal = {
  status: 401,
  code: 20003,
  message: 'Authenticate',
};

export interface TestTwilioApi {
  url: string;
  /** Every request, the refused ones too. */
  requests: TwilioRequest[];
  /** The requests it accepted (201): the messages that went out. */
  sent: TwilioRequest[];
  /** Numbers Twilio refuses for good (its error 21211, "not a valid phone number"). */
  invalidNumbers: Set<string>;
  /**
   * The answers to the next requests, whatever they are for, one each in order before it accepts
   * again: e.g. `authenticationRefusal` once models the moments of a credential rotation when the
   * app's token is already refused. A request answered so sends nothing.
   */
  refuseNext: TwilioRefusal[];
  stop(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A local stand-in for api.twilio.com's Messages resource; the twilio client is pointed here. */
export async function startTestTwilioApi(): Promise<TestTwilioApi> {
  const api: TestTwilioApi = {
    url: '',
    requests: [],
    sent: [],
    invalidNumbers: new Set(),
    refuseNext: [],
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    void (async () => {
      const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
      const request: TwilioRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization ?? '',
        form,
      };
      api.requests.push(request);
      res.setHeader('content-type', 'application/json');
      const refusal = api.refuseNext.shift();
      if (refusal) {
        res.statusCode = refusal.status;
        res.end(
          JSON.stringify({
            code: refusal.code,
            message: refusal.message,
            more_info: `https://www.twilio.com/docs/errors/${refusal.code}`,
            status: refusal.status,
          }),
        );
        return;
      }
      if (api.invalidNumbers.has(form.To ?? '')) {
        res.statusCode = 400;
        res.end(
          JSON.stringify({
            code: 21211,
            message: "The 'To' number is not a valid phone number.",
            status: 400,
          }),
        );
        return;
      }
      api.sent.push(request);
      res.statusCode = 201;
      res.end(
        JSON.stringify({
          sid: `SM${randomBytes(16).toString('hex')}`,
          to: form.To,
          from: form.From,
          body: form.Body,
          status: 'queued',
        }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}
