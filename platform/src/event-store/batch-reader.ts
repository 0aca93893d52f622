import type { Readable } from 'node:stream';
import type { GlobalPosition } from '@wagers/contracts/position';
import type { ReadAllOptions } from './port.ts';

/**
 * Takes what an object-mode stream (a live subscription) has buffered, a batch at a time, so a
 * follower hands over pages while it keeps up and single events when the log is quiet.
 */
export class BatchReader<T> {
  private failure: Error | null = null;
  private ended = false;
  private wake: (() => void) | null = null;

  constructor(private readonly stream: Readable) {
    // Listening for errors from the start also keeps one arriving between reads from going unhandled.
    stream.on('error', (error: Error) => {
      this.failure = error;
      this.wake?.();
    });
    stream.on('readable', () => this.wake?.());
    const end = () => {
      this.ended = true;
      this.wake?.();
    };
    stream.on('end', end);
    stream.on('close', end);
  }

  /** Up to `max` items, waiting for the first; null once the stream has ended, [] once aborted. */
  async next(max: number, signal: AbortSignal): Promise<T[] | null> {
    for (;;) {
      const batch: T[] = [];
      for (
        let item: T | null;
        batch.length < max && (item = this.stream.read() as T | null) !== null;
      ) {
        batch.push(item);
      }
      if (batch.length > 0 || signal.aborted) return batch;
      if (this.failure) throw this.failure;
      if (this.ended) return null;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.wake = null;
          signal.removeEventListener('abort', wake);
          resolve();
        };
        this.wake = wake;
        signal.addEventListener('abort', wake);
      });
    }
  }
}

/**
 * The log after `after` to its end, in pages read by `read`, the next page read while the caller
 * works on this one; it ends after a page shorter than `pageSize`. A page the caller never takes
 * (it stopped early) is read and dropped.
 */
export async function* readAhead<Event extends { position: GlobalPosition }>(
  read: (options: ReadAllOptions) => Promise<Event[]>,
  { after, pageSize }: { after?: GlobalPosition | null; pageSize: number },
): AsyncGenerator<Event[]> {
  const prefetch = (from: GlobalPosition | null) => {
    const page = read({ after: from, maxCount: pageSize });
    page.catch(() => undefined); // awaited below; a failure then ends the read
    return page;
  };
  let next = prefetch(after ?? null);
  for (;;) {
    const page = await next;
    if (page.length === pageSize) next = prefetch(page.at(-1)!.position);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
  }
}
