import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localAvatarStore } from './local-store.ts';

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const storeIn = (dir: string) =>
  localAvatarStore({
    dir,
    secret: 'secret',
    publicUrl: () => 'http://localhost:5000',
    now: () => new Date(),
  });

describe('avatars on the local disk', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('makes the folders an upload and its claim go to, the avatar folder too if it is not there', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'wagers-avatars-'));
    dirs.push(dir);
    const store = storeIn(path.join(dir, 'avatars'));
    const key = `${randomUUID()}/${randomUUID()}`;
    expect(await store.write(key, png)).toBe(true);
    await store.claim(key, 'image/png');
    expect(await readFile(store.filePath(key))).toEqual(png);
  });

  it('fails an upload where its folder cannot be made, rather than wait forever', async () => {
    // Under /proc a recursive mkdir never returns: refused, it makes the parent again and retries.
    const store = storeIn('/proc/wagers/avatars');
    const key = `${randomUUID()}/${randomUUID()}`;
    await expect(store.write(key, png)).rejects.toMatchObject({ code: 'ENOENT' });
  }, 10_000);
});
