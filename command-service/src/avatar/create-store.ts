import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { CommandServiceDeps } from '../deps.ts';
import type { AvatarStore } from './avatar-store.ts';
import { localAvatarStore, type LocalAvatarStore } from './local-store.ts';
import { s3AvatarStore } from './s3-store.ts';

/** S3 when a bucket is configured, else the local disk under DATA_DIR/avatars (or AVATAR_DIR). */
export function createAvatarStore(
  deps: Pick<CommandServiceDeps, 'config' | 'logger' | 'runtime' | 'publicUrl'>,
): {
  store: AvatarStore;
  local: LocalAvatarStore | null;
} {
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
  const local = localAvatarStore({
    // Absolute, because files are sent with res.sendFile.
    dir: path.resolve(config.AVATAR_DIR ?? path.join(config.DATA_DIR, 'avatars')),
    secret: config.UPLOAD_SIGNING_SECRET ?? randomBytes(32).toString('hex'),
    publicUrl: deps.publicUrl,
    now: deps.runtime.now,
  });
  return { store: local, local };
}
