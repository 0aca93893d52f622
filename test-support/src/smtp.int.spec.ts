import { connect, type Socket } from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, expect, it } from 'vitest';
import { startTestSmtpServer } from './smtp.ts';

const smtp = await startTestSmtpServer();
afterAll(() => smtp.stop());

/** Reads the server's answers until one starts with the given code. */
function expectReply(socket: Socket, code: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.split('\r\n').some((line) => line.startsWith(`${code} `))) {
        socket.off('data', onData);
        resolve();
      } else if (/^[45]\d\d /m.test(seen)) {
        socket.off('data', onData);
        reject(new Error(`expected ${code}, the server said: ${seen}`));
      }
    };
    socket.on('data', onData);
  });
}

it('outlives a client whose connection is reset in the middle of a message', async () => {
  const { port } = new URL(smtp.url);
  const socket = connect(Number(port), '127.0.0.1');
  socket.on('error', () => undefined);
  await expectReply(socket, '220');
  for (const [line, code] of [
    ['EHLO client.example', '250'],
    ['MAIL FROM:<a@example.com>', '250'],
    ['RCPT TO:<b@example.com>', '250'],
    ['DATA', '354'],
  ] as const) {
    const reply = expectReply(socket, code);
    socket.write(`${line}\r\n`);
    await reply;
  }
  // The whole message is sent; while the slow server holds its answer, the client dies.
  smtp.delayMs = 300;
  socket.write('Subject: cut short\r\n\r\nnever answered\r\n.\r\n');
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.resetAndDestroy();

  await expect
    .poll(() => smtp.droppedConnections.map((e) => (e as NodeJS.ErrnoException).code), {
      timeout: 5_000,
    })
    .toEqual(['ECONNRESET']);

  smtp.delayMs = 0;
  const transport = nodemailer.createTransport(smtp.url);
  await transport.sendMail({
    from: 'a@example.com',
    to: 'c@example.com',
    subject: 'whole',
    text: 'arrives',
  });
  transport.close();
  const whole = smtp.received.filter((mail) => mail.subject === 'whole');
  expect(whole.map((mail) => mail.to)).toEqual([['c@example.com']]);
});
