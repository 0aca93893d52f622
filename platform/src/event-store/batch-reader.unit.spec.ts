import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BatchReader } from './batch-reader.ts';

const objects = () => new PassThrough({ objectMode: true, highWaterMark: 100 });

describe('BatchReader', () => {
  it('hands over what is buffered, at most max at a time', async () => {
    const stream = objects();
    const reader = new BatchReader<number>(stream);
    for (let i = 1; i <= 5; i++) stream.write(i);
    const never = new AbortController().signal;

    expect(await reader.next(3, never)).toEqual([1, 2, 3]);
    expect(await reader.next(3, never)).toEqual([4, 5]);
  });

  it('waits for the next item when nothing is buffered', async () => {
    const stream = objects();
    const reader = new BatchReader<string>(stream);

    const next = reader.next(10, new AbortController().signal);
    stream.write('late');

    expect(await next).toEqual(['late']);
  });

  it('gives an empty batch once aborted while waiting', async () => {
    const reader = new BatchReader<string>(objects());
    const stop = new AbortController();

    const next = reader.next(10, stop.signal);
    stop.abort();

    expect(await next).toEqual([]);
  });

  it('gives null once the stream has ended and everything was read', async () => {
    const stream = objects();
    const reader = new BatchReader<string>(stream);
    stream.end('last');
    const never = new AbortController().signal;

    expect(await reader.next(10, never)).toEqual(['last']);
    expect(await reader.next(10, never)).toBeNull();
  });

  it('rejects with an error the stream raised, even one raised between reads', async () => {
    const stream = objects();
    const reader = new BatchReader<string>(stream);
    const failure = new Error('connection lost');
    stream.emit('error', failure);

    await expect(reader.next(10, new AbortController().signal)).rejects.toBe(failure);
  });
});
