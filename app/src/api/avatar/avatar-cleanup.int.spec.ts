import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AvatarUploadUrlResponse } from '@wagers/contracts/api/profile';
import type { User } from '@wagers/contracts/api/user';
import { startTestApp, type TestApp } from '../../test-support/test-app.ts';
import { person } from '../friends/friends-fixtures.ts';

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Files anywhere under `dir`. */
async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

describe('uploads nobody claims', () => {
  let app: TestApp;
  let dir: string;
  let offsetMs = 0;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wagers-avatars-'));
    app = await startTestApp({
      env: { AVATAR_DIR: dir },
      runtime: { now: () => new Date(Date.now() + offsetMs), newId: () => randomUUID() },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('are never shown, are removed once their URL has long expired, and the avatar stays', async () => {
    const ann = await person(app, 'ann@example.com');
    const uploadUrl = async () =>
      (await ann.client.post<AvatarUploadUrlResponse>('/api/avatar/upload-url', {})).body.uploadURL;
    const urls = [await uploadUrl(), await uploadUrl(), await uploadUrl()];
    for (const url of urls)
      expect(
        (await fetch(url, { method: 'PUT', body: png, headers: { 'content-type': 'image/png' } }))
          .status,
      ).toBe(200);
    const saved = await ann.client.put<User>('/api/avatar', { avatarURL: urls[0] });
    expect(saved.status, saved.text).toBe(200);
    const avatar = saved.body.profileImageUrl!;
    expect((await fetch(`${app.url}${avatar}`)).status).toBe(200);
    const unclaimed = urls[1]!.split('?')[0]!.replace(/^.*\/api\/avatar\/uploads\//, '/avatars/');
    expect((await fetch(`${app.url}${unclaimed}`)).status).toBe(404);
    expect(await files(path.join(dir, 'pending'))).toHaveLength(2);

    // An hour on, the next upload URL anyone asks for sweeps the two away.
    offsetMs = 3600_000;
    await uploadUrl();
    await expect.poll(() => files(path.join(dir, 'pending'))).toHaveLength(0);
    const late = await ann.client.put('/api/avatar', { avatarURL: urls[1] });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ errors: [{ field: 'avatarURL' }] });
    expect((await fetch(`${app.url}${avatar}`)).status).toBe(200);
  });

  it('are limited to 20 upload URLs an hour per person', async () => {
    const bob = await person(app, 'bob@example.com');
    const ask = () => bob.client.post('/api/avatar/upload-url', {});
    for (let i = 0; i < 20; i++) expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
