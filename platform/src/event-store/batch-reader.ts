import type { Readable } from 'node:stream';

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
