import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope recipients, lowercased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Header lines, names lowercased. */
  headers: Record<string, string>;
}

export interface TestSmtpServer {
  url: string;
  received: ReceivedMail[];
  /** Messages refused so far (the server answered 451). */
  refusals: number;
  /** While true, every message is refused with a temporary 451. */
  refusing: boolean;
  /**
   * Addresses refused for good at RCPT TO, with a 550 that quotes the address as real servers'
   * replies do.
   */
  rejecting: Set<string>;
  /** Accept each message only after this many ms: a slow server, so a batch is mid-flight. */
  delayMs: number;
  /** Connections lost mid-message (a client killed while sending), which a server outlives. */
  droppedConnections: Error[];
  waitFor(
    predicate: (received: ReceivedMail[]) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<void>;
  stop(): Promise<void>;
}

/** A real SMTP server on a random port that keeps what it receives, parsed with postal-mime. */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const state: TestSmtpServer = {
    url: '',
    received: [],
    refusals: 0,
    refusing: false,
    rejecting: new Set(),
    delayMs: 0,
    droppedConnections: [],
    async waitFor(predicate, what, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(state.received)) {
        if (Date.now() > deadline) {
          // What had arrived when the wait ended, not when it began: what a failure needs to show.
          const seen = state.received.map((mail) => `${mail.to.join(', ')}: ${mail.subject}`);
          throw new Error(
            `SMTP server: timed out waiting for ${what}; received ${seen.length}` +
              (seen.length > 0 ? `:\n  ${seen.join('\n  ')}` : ''),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!state.rejecting.has(address.address.toLowerCase())) return callback();
      const reply = `5.1.1 <${address.address}>: Recipient address rejected: User unknown`;
      callback(Object.assign(new Error(reply), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void (async () => {
          if (state.refusing) {
            state.refusals++;
            const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
            callback(error);
            return;
          }
          if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
          const parsed = await PostalMime.parse(Buffer.concat(chunks));
          state.received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            from: parsed.from && 'address' in parsed.from ? (parsed.from.address ?? '') : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html ?? '',
            headers: Object.fromEntries(parsed.headers.map((h) => [h.key.toLowerCase(), h.value])),
          });
          callback();
        })();
      });
    },
  });
  // A client that dies mid-transaction resets its socket; smtp-server reports that as an 'error'
  // event, which with no listener would bring down the process that hosts this server.
  server.on('error', (error: Error) => state.droppedConnections.push(error));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  state.url = `smtp://127.0.0.1:${port}`;
  return state;
}
