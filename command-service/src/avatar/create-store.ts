import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { usableFolder } from '@wagers/platform/folders';
import type { CommandServiceDeps } from '../deps.ts';
import type { AvatarStore } from './avatar-store.ts';
import { localAvatarStore, type LocalAvatarStore } from './local-store.ts';
import { s3AvatarStore } from './s3-store.ts';

/** The avatar store, and the same store as a local one when avatars are kept on this disk. */
export interface AvatarStores {
  store: AvatarStore;
  local: LocalAvatarStore | null;
}

/**
 * S3 when a bucket is configured, else the local disk under DATA_DIR/avatars (or AVATAR_DIR),
 * made at start if need be: a folder this process cannot make or write stops it then, naming
 * AVATAR_DIR, rather than the first upload.
 */
export async function createAvatarStore(
  deps: Pick<CommandServiceDeps, 'config' | 'logger' | 'runtime' | 'publicUrl'>,
): Promise<AvatarStores> {
  const { config } = deps;
  if (config.S3_BUCKET) {
    deps.logger.info({ bucket: config.S3_BUCKET }, 'Avatars: S3-compatible bucket');
    const store = s3AvatarStore({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      publicUrl: config.S3_PUBLIC_URL,
    });
    return { store, local: null };
  }
  if (!config.UPLOAD_SIGNING_SECRET && config.production) {
    deps.logger.warn(
      'UPLOAD_SIGNING_SECRET is not set: avatar upload links only work on the process that issued them',
    );
  }
  const dir = config.AVATAR_DIR ?? path.join(config.DATA_DIR, 'avatars');
  await usableFolder('AVATAR_DIR', dir);
  const local = localAvatarStore({
    // Absolute, because files are sent with res.sendFile.
    dir: path.resolve(dir),
    secret: config.UPLOAD_SIGNING_SECRET ?? randomBytes(32).toString('hex'),
    publicUrl: deps.publicUrl,
    now: deps.runtime.now,
  });
  return { store: local, local };
}
