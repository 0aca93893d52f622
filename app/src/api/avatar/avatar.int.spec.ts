import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AvatarUploadUrlResponse } from '@wagers/contracts/api/profile';
import type { User } from '@wagers/contracts/api/user';
import { startTestApp, type TestApp } from '../../test-support/test-app.ts';
import { catchUp, eventCount, person } from '../friends/friends-fixtures.ts';

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);

describe('avatar upload on the local disk', () => {
  let app: TestApp;
  let scratch: string;
  /** AVATAR_DIR: a folder that does not exist yet when the product starts. */
  let dir: string;
  let ann: Awaited<ReturnType<typeof person>>;

  const uploadUrl = async (client = ann.client) =>
    (
      await client.post<AvatarUploadUrlResponse>('/api/avatar/upload-url', {
        contentType: 'image/png',
        size: png.length,
      })
    ).body.uploadURL;
  const put = (url: string, body: Uint8Array, contentType: string) =>
    fetch(url, { method: 'PUT', body, headers: { 'content-type': contentType } });

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'wagers-avatars-'));
    dir = path.join(scratch, 'uploads', 'avatars');
    app = await startTestApp({ env: { AVATAR_DIR: dir } });
    ann = await person(app, 'ann@example.com');
  });
  afterAll(async () => {
    await app?.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('makes AVATAR_DIR at start, before anyone uploads', () => {
    expect(existsSync(dir)).toBe(true);
  });

  it('uploads through a signed URL, sets the avatar, and shows it wherever the user appears', async () => {
    const bob = await person(app, 'bob@example.com');
    const request = await bob.client.post<{ id: string }>('/api/friend-requests', {
      receiverId: ann.id,
    });
    catchUp(ann, bob);
    expect((await ann.client.post(`/api/friend-requests/${request.body.id}/accept`)).status).toBe(
      200,
    );

    const url = await uploadUrl();
    expect(url.startsWith(`${app.url}/api/avatar/uploads/${ann.id}/`)).toBe(true);
    expect(url).toMatch(/[?&]signature=/);
    expect((await put(url, png, 'image/png')).status).toBe(200);

    const set = await ann.client.put<User>('/api/avatar', { avatarURL: url });
    expect(set.status).toBe(200);
    expect(set.headers.get('x-wagers-position')).toBeTruthy();
    const imageUrl = set.body.profileImageUrl!;
    expect(imageUrl).toMatch(new RegExp(`^/avatars/${ann.id}/[0-9a-f-]{36}$`));

    expect((await ann.client.get<User>('/api/auth/user')).body.profileImageUrl).toBe(imageUrl);
    catchUp(bob, ann);
    expect((await bob.client.get<User[]>('/api/friends')).body[0]!.profileImageUrl).toBe(imageUrl);

    const image = await fetch(`${app.url}${imageUrl}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);

    // The object's own URL is accepted too, and setting the same picture again changes nothing.
    const before = await eventCount(app);
    expect(
      (await ann.client.put('/api/avatar', { avatarURL: `${app.url}${imageUrl}` })).status,
    ).toBe(200);
    expect(await eventCount(app)).toBe(before);
  });

  it('lets an upload URL write once, and only with its own signature', async () => {
    const url = await uploadUrl();
    const tampered = url.replace(/signature=[^&]+/, 'signature=AAAA');
    expect((await put(tampered, png, 'image/png')).status).toBe(403);
    const longer = url.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 3600}`);
    expect((await put(longer, png, 'image/png')).status).toBe(403);
    const otherObject = url.replace(
      /\/([0-9a-f-]{36})\?/,
      '/00000000-0000-4000-8000-000000000000?',
    );
    expect((await put(otherObject, png, 'image/png')).status).toBe(403);
    expect((await put(url, jpeg, 'image/jpeg')).status).toBe(200);
    expect((await put(url, png, 'image/png')).status).toBe(409);
  });

  it('checks the bytes, not only the header, and the size', async () => {
    const url = await uploadUrl();
    const cases: [Uint8Array, string][] = [
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'image/png'],
      [png, 'text/html'],
      [png, 'image/jpeg'],
      [Buffer.alloc(0), 'image/png'],
      [Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]), 'image/png'],
    ];
    for (const [body, type] of cases) {
      const response = await put(url, body, type);
      expect(response.status, `${type} ${body.length}`).toBe(400);
      expect(await response.json()).toMatchObject({ errors: [{ field: 'file' }] });
    }
    expect((await put(url, png, 'image/png')).status).toBe(200);
  });

  it('accepts only a URL this product issued to this user, once uploaded; writes nothing otherwise', async () => {
    const cy = await person(app, 'cy@example.com');
    const cysUrl = await uploadUrl(cy.client);
    expect((await put(cysUrl, png, 'image/png')).status).toBe(200);
    const notUploaded = await uploadUrl();
    const before = await eventCount(app);
    for (const avatarURL of [
      cysUrl,
      notUploaded,
      'https://evil.example/avatars/x.png',
      `${app.url}/avatars/${ann.id}/../../etc/passwd`,
      'nonsense',
    ]) {
      const response = await ann.client.put('/api/avatar', { avatarURL });
      expect(response.status, avatarURL).toBe(400);
      expect(response.body, avatarURL).toMatchObject({ errors: [{ field: 'avatarURL' }] });
    }
    for (const body of [{}, { avatarURL: '' }, { avatarURL: 3 }]) {
      expect((await ann.client.put('/api/avatar', body)).body).toMatchObject({
        errors: [{ field: 'avatarURL' }],
      });
    }
    const badRequests: [unknown, string][] = [
      [{ contentType: 'text/plain' }, 'contentType'],
      [{ size: 6 * 1024 * 1024 }, 'size'],
    ];
    for (const [body, field] of badRequests) {
      const response = await ann.client.post('/api/avatar/upload-url', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ errors: [{ field }] });
    }
    expect(await eventCount(app)).toBe(before);
  });

  it('removes the picture a new one replaces, and every picture of an erased account', async () => {
    const cy = await person(app, 'cy@example.com');
    const setPicture = async () => {
      const url = await uploadUrl(cy.client);
      expect((await put(url, png, 'image/png')).status).toBe(200);
      const set = await cy.client.put<User>('/api/avatar', { avatarURL: url });
      expect(set.status, set.text).toBe(200);
      return set.body.profileImageUrl!;
    };
    const served = async (imageUrl: string) => (await fetch(`${app.url}${imageUrl}`)).status;

    const first = await setPicture();
    expect(await served(first)).toBe(200);
    const second = await setPicture();
    expect(second).not.toBe(first);
    // The replaced picture is gone at once; the new one is served.
    expect(await served(first)).toBe(404);
    expect(await served(second)).toBe(200);
    // An upload never claimed lies in the account's folder too.
    expect((await put(await uploadUrl(cy.client), png, 'image/png')).status).toBe(200);

    const deleted = await cy.client.request('DELETE', '/api/user', {
      confirmEmail: 'cy@example.com',
    });
    expect(deleted.status, deleted.text).toBe(200);
    // The erasure removes the account's pictures once it has run.
    await app.settled();
    expect(await served(first)).toBe(404);
    expect(await served(second)).toBe(404);
    expect(existsSync(path.join(dir, cy.id))).toBe(false);
    expect(existsSync(path.join(dir, 'pending', cy.id))).toBe(false);
    // Ann's picture is not touched.
    expect((await ann.client.get<User>('/api/auth/user')).body.profileImageUrl).toBeTruthy();
  });

  it('answers 401 to a caller who is not signed in', async () => {
    expect((await app.anonymous().post('/api/avatar/upload-url', {})).status).toBe(401);
    expect((await app.anonymous().put('/api/avatar', { avatarURL: 'x' })).status).toBe(401);
  });
});
