import { describe, expect, it } from 'vitest';
import { Batches } from './batches.ts';

describe('batches', () => {
  it('sends what comes while a batch is in flight in the next one, and answers each item when its batch is done', async () => {
    const sent: number[][] = [];
    let release: () => void = () => undefined;
    const batches = new Batches<number>(async (items) => {
      sent.push(items);
      if (sent.length === 1) await new Promise<void>((resolve) => (release = resolve));
    }, 10);
    const done: number[] = [];
    const first = batches.add(1).then(() => done.push(1));
    const second = batches.add(2).then(() => done.push(2));
    const third = batches.add(3).then(() => done.push(3));
    await Promise.resolve();
    expect(sent).toEqual([[1]]);
    expect(done).toEqual([]);
    release();
    await Promise.all([first, second, third]);
    expect(sent).toEqual([[1], [2, 3]]);
    expect(done).toEqual([1, 2, 3]);
  });

  it('fails every item of a failed batch, and goes on with the next', async () => {
    let calls = 0;
    const batches = new Batches<string>(() => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('down')) : Promise.resolve();
    }, 10);
    const failed = batches.add('a');
    await expect(failed).rejects.toThrow('down');
    await expect(batches.add('b')).resolves.toBeUndefined();
  });

  it('takes at most the batch size at a time', async () => {
    const sent: string[][] = [];
    const batches = new Batches<string>((items) => {
      sent.push(items);
      return Promise.resolve();
    }, 2);
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((item) => batches.add(item)));
    expect(sent).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
  });
});
