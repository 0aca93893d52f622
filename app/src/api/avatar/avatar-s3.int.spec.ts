import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AvatarUploadUrlResponse } from '@wagers/contracts/api/profile';
import type { User } from '@wagers/contracts/api/user';
import { startTestApp, type TestApp } from '../../test-support/test-app.ts';
import { eventCount, person } from '../friends/friends-fixtures.ts';

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const bucket = 'wagers-avatars';

/** The same calls against an S3-compatible server (s3rver here; MinIO in docker-compose), through the AWS SDK. */
describe('avatar upload to an S3-compatible bucket', () => {
  let dir: string;
  let s3: S3rver;
  let endpoint: string;
  let app: TestApp;
  let offsetMs = 0;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wagers-s3-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: bucket }],
    });
    const { port } = await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
    app = await startTestApp({
      env: {
        S3_ENDPOINT: endpoint,
        S3_BUCKET: bucket,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      },
      runtime: { now: () => new Date(Date.now() + offsetMs), newId: () => randomUUID() },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const uploadUrl = async (client: Awaited<ReturnType<typeof person>>['client']) =>
    (await client.post<AvatarUploadUrlResponse>('/api/avatar/upload-url', {})).body.uploadURL;
  const put = (url: string, body: Uint8Array, type: string) =>
    fetch(url, { method: 'PUT', body, headers: { 'content-type': type } });

  it('uploads to a presigned URL and sets the bucket object as the avatar', async () => {
    const ann = await person(app, 'ann@example.com');
    const url = await uploadUrl(ann.client);
    expect(url.startsWith(`${endpoint}/${bucket}/pending/${ann.id}/`)).toBe(true);
    expect(url).toContain('X-Amz-Signature=');
    expect((await put(url, png, 'image/png')).status).toBe(200);

    const set = await ann.client.put<User>('/api/avatar', { avatarURL: url });
    expect(set.status).toBe(200);
    // Saved, the picture moves from the uploads to where it is read from.
    expect(set.body.profileImageUrl).toBe(url.split('?')[0]!.replace('/pending/', '/avatars/'));
    expect((await fetch(url.split('?')[0]!)).status).toBe(404);
    expect((await ann.client.get<User>('/api/auth/user')).body.profileImageUrl).toBe(
      set.body.profileImageUrl,
    );
    const stored = await fetch(set.body.profileImageUrl!);
    expect(Buffer.from(await stored.arrayBuffer()).equals(png)).toBe(true);
  });

  it('serves a picture as the image its bytes are, whatever type its uploader sent', async () => {
    const eve = await person(app, 'eve@example.com');
    const url = await uploadUrl(eve.client);
    // A PNG's first bytes, then a page: sent as HTML, it would run as a page from the bucket.
    const page = Buffer.concat([png.subarray(0, 16), Buffer.from('<script>alert(1)</script>')]);
    expect((await put(url, page, 'text/html')).status).toBe(200);
    const set = await eve.client.put<User>('/api/avatar', { avatarURL: url });
    expect(set.status).toBe(200);
    const served = await fetch(set.body.profileImageUrl!);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
  });

  it('refuses an object that is not an image, or not the caller’s, and writes nothing', async () => {
    const bob = await person(app, 'bob@example.com');
    const cy = await person(app, 'cy@example.com');
    const fake = await uploadUrl(bob.client);
    expect((await put(fake, Buffer.from('<html>not a picture</html>'), 'image/png')).status).toBe(
      200,
    );
    const cysUrl = await uploadUrl(cy.client);
    expect((await put(cysUrl, png, 'image/png')).status).toBe(200);
    const before = await eventCount(app);
    const brokenEscape = `${endpoint}/${bucket}/pending/${bob.id}/%zz`;
    for (const avatarURL of [fake, cysUrl, await uploadUrl(bob.client), brokenEscape]) {
      const response = await bob.client.put('/api/avatar', { avatarURL });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ errors: [{ field: 'avatarURL' }] });
    }
    expect(await eventCount(app)).toBe(before);
    // The bytes that were not an image are gone from the bucket.
    expect((await fetch(fake.split('?')[0]!)).status).toBe(404);
  });

  it('removes uploads nobody claimed once their URL has long expired', async () => {
    const dee = await person(app, 'dee@example.com');
    const url = await uploadUrl(dee.client);
    expect((await put(url, png, 'image/png')).status).toBe(200);
    const object = url.split('?')[0]!;
    expect((await fetch(object)).status).toBe(200);
    offsetMs = 3600_000;
    // Asking for the next upload URL sweeps.
    await uploadUrl(dee.client);
    await expect.poll(async () => (await fetch(object)).status).toBe(404);
  });

  it('removes a replaced picture, and every object of an erased account', async () => {
    const fay = await person(app, 'fay@example.com');
    const setPicture = async () => {
      const url = await uploadUrl(fay.client);
      expect((await put(url, png, 'image/png')).status).toBe(200);
      const set = await fay.client.put<User>('/api/avatar', { avatarURL: url });
      expect(set.status, set.text).toBe(200);
      return set.body.profileImageUrl!;
    };
    const first = await setPicture();
    const second = await setPicture();
    expect((await fetch(first)).status).toBe(404);
    expect((await fetch(second)).status).toBe(200);
    // An upload never claimed is the account's too.
    const upload = await uploadUrl(fay.client);
    expect((await put(upload, png, 'image/png')).status).toBe(200);

    const deleted = await fay.client.request('DELETE', '/api/user', {
      confirmEmail: 'fay@example.com',
    });
    expect(deleted.status, deleted.text).toBe(200);
    await app.settled();
    for (const object of [first, second, upload.split('?')[0]!])
      expect((await fetch(object)).status).toBe(404);
  });
});
