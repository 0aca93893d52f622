import type { ServerWritableStream, status } from '@grpc/grpc-js';

/**
 * Writes one message, waiting for the client to take in what is buffered first, as a server
 * holds back a reader that is slow. False once the call is over: the caller stops.
 */
export async function send<Req, Resp>(
  call: ServerWritableStream<Req, Resp>,
  message: Resp,
): Promise<boolean> {
  if (call.cancelled || call.destroyed) return false;
  if (call.write(message)) return true;
  return new Promise<boolean>((resolve) => {
    const done = (open: boolean) => () => {
      call.off('drain', drained);
      call.off('cancelled', ended);
      call.off('close', ended);
      resolve(open);
    };
    const drained = done(true);
    const ended = done(false);
    call.once('drain', drained);
    call.once('cancelled', ended);
    call.once('close', ended);
  });
}

/**
 * Ends the call with an error status, as the server's RpcException does, once what is already
 * written has gone out (destroying the call would lose the status).
 */
export function fail<Req, Resp>(
  call: ServerWritableStream<Req, Resp>,
  code: status,
  details: string,
): void {
  call.emit('error', Object.assign(new Error(details), { code, details }));
}
