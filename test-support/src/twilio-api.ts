import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface TwilioRequest {
  method: string;
  path: string;
  authorization: string;
  form: Record<string, string>;
}

export interface TestTwilioApi {
  url: string;
  requests: TwilioRequest[];
  /** Numbers Twilio refuses for good (its error 21211, "not a valid phone number"). */
  invalidNumbers: Set<string>;
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
    invalidNumbers: new Set(),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    void (async () => {
      const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
      api.requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization ?? '',
        form,
      });
      res.setHeader('content-type', 'application/json');
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
