import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { link, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeFolders } from '@wagers/platform/folders';
import { IMAGE_SIGNATURE_BYTES } from './image-type.ts';
import {
  objectKeyPattern,
  UPLOAD_URL_TTL_SECONDS,
  userFolderPattern,
  type AvatarStore,
} from './avatar-store.ts';

export const LOCAL_UPLOAD_PATH = '/api/avatar/uploads';
export const LOCAL_OBJECT_PATH = '/avatars';

export interface LocalAvatarStore extends AvatarStore {
  /** Whether an upload URL's signature is ours and has not expired. */
  verifyUpload(key: string, expires: string, signature: string, now: Date): boolean;
  /** Stores an upload; false when the object already exists (an upload URL works once). */
  write(key: string, bytes: Uint8Array): Promise<boolean>;
  /** Where a claimed object's file is. */
  filePath(key: string): string;
}

/**
 * Avatars on the local disk, served by the product. Upload URLs carry an HMAC of the object key
 * and their expiry, so only a URL we issued can write, and only to the object it names. Uploads
 * land under `pending/` and move out when claimed, so one never claimed is easy to find and drop.
 */
export function localAvatarStore(options: {
  dir: string;
  secret: string;
  publicUrl: () => string;
  now: () => Date;
}): LocalAvatarStore {
  const sign = (key: string, expires: string) =>
    createHmac('sha256', options.secret).update(`${key}\n${expires}`).digest('base64url');
  const filePath = (key: string) => path.join(options.dir, ...key.split('/'));
  const pendingDir = path.join(options.dir, 'pending');
  const pendingPath = (key: string) => path.join(pendingDir, ...key.split('/'));
  const origin = () => options.publicUrl().replace(/\/$/, '');

  function keyFromPath(pathname: string, prefix: string): string | null {
    if (!pathname.startsWith(`${prefix}/`)) return null;
    const key = pathname.slice(prefix.length + 1);
    return objectKeyPattern.test(key) ? key : null;
  }

  return {
    kind: 'local',
    issueUploadUrl(userId) {
      const key = `${userId}/${randomUUID()}`;
      const expires = String(Math.floor(options.now().getTime() / 1000) + UPLOAD_URL_TTL_SECONDS);
      const query = new URLSearchParams({ expires, signature: sign(key, expires) });
      return Promise.resolve(`${origin()}${LOCAL_UPLOAD_PATH}/${key}?${query.toString()}`);
    },
    ownedKey(url, userId) {
      let parsed: URL;
      try {
        parsed = new URL(url, origin());
      } catch {
        return null;
      }
      if (parsed.origin !== new URL(origin()).origin) return null;
      const key =
        keyFromPath(parsed.pathname, LOCAL_UPLOAD_PATH) ??
        keyFromPath(parsed.pathname, LOCAL_OBJECT_PATH);
      return key?.startsWith(`${userId}/`) ? key : null;
    },
    verifyUpload(key, expires, signature, now) {
      if (!objectKeyPattern.test(key) || !/^\d{1,12}$/.test(expires)) return false;
      if (Number(expires) * 1000 < now.getTime()) return false;
      const expected = Buffer.from(sign(key, expires));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    async write(key, bytes) {
      if (await exists(filePath(key))) return false;
      const target = pendingPath(key);
      // One level at a time: where the folder has become unusable, the upload fails, never hangs.
      await makeFolders(path.dirname(target));
      const temporary = `${target}.${randomUUID()}.part`;
      await writeFile(temporary, bytes);
      try {
        // A hard link fails if the target exists: of two uploads to one URL, one wins.
        await link(temporary, target);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      } finally {
        await rm(temporary, { force: true });
      }
    },
    async inspect(key) {
      if (!objectKeyPattern.test(key)) return null;
      const claimed = await head(filePath(key));
      if (claimed) return { ...claimed, claimed: true };
      const pending = await head(pendingPath(key));
      return pending ? { ...pending, claimed: false } : null;
    },
    async claim(key) {
      if (!objectKeyPattern.test(key)) return;
      const target = filePath(key);
      await makeFolders(path.dirname(target));
      try {
        await link(pendingPath(key), target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      await rm(pendingPath(key), { force: true });
    },
    async remove(key) {
      if (!objectKeyPattern.test(key)) return;
      await rm(filePath(key), { force: true });
      await rm(pendingPath(key), { force: true });
    },
    async removeAllOf(userId) {
      if (!userFolderPattern.test(userId)) return;
      await rm(path.join(options.dir, userId), { recursive: true, force: true });
      await rm(path.join(pendingDir, userId), { recursive: true, force: true });
    },
    async removeUnclaimedBefore(cutoff) {
      let removed = 0;
      for (const userDir of await readdir(pendingDir).catch(() => [])) {
        for (const name of await readdir(path.join(pendingDir, userDir)).catch(() => [])) {
          const file = path.join(pendingDir, userDir, name);
          const info = await stat(file).catch(() => null);
          if (info && info.mtime < cutoff) {
            await rm(file, { force: true });
            removed += 1;
          }
        }
      }
      return removed;
    },
    objectUrl: (key) => `${LOCAL_OBJECT_PATH}/${key}`,
    filePath,
  };
}

async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null)) !== null;
}

/** Size and first bytes of a file; null when there is none. */
async function head(file: string): Promise<{ size: number; head: Uint8Array } | null> {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      const bytes = new Uint8Array(IMAGE_SIGNATURE_BYTES);
      const { bytesRead } = await handle.read(bytes, 0, IMAGE_SIGNATURE_BYTES, 0);
      return { size, head: bytes.subarray(0, bytesRead) };
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}
