import { randomUUID } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { IMAGE_SIGNATURE_BYTES } from './image-type.ts';
import { objectKeyPattern, UPLOAD_URL_TTL_SECONDS, type AvatarStore } from './avatar-store.ts';

export interface S3Settings {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Where browsers read objects; default `{endpoint}/{bucket}`. */
  publicUrl?: string;
}

const PREFIX = 'avatars/';

/**
 * Avatars in any S3-compatible bucket (MinIO in docker-compose). The browser PUTs straight to a
 * presigned URL, so the bucket cannot check the bytes; PUT /api/avatar reads them back first.
 */
export function s3AvatarStore(settings: S3Settings): AvatarStore {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? {
          credentials: {
            accessKeyId: settings.accessKeyId,
            secretAccessKey: settings.secretAccessKey,
          },
        }
      : {}),
  });
  const base = (
    settings.publicUrl ??
    `${settings.endpoint ?? `https://s3.${settings.region}.amazonaws.com`}/${settings.bucket}`
  ).replace(/\/$/, '');
  const bucketBase = settings.endpoint
    ? `${settings.endpoint.replace(/\/$/, '')}/${settings.bucket}`
    : null;

  function keyFrom(url: URL, prefix: string): string | null {
    const root = new URL(prefix);
    if (url.origin !== root.origin) return null;
    const start = `${root.pathname.replace(/\/$/, '')}/${PREFIX}`;
    if (!url.pathname.startsWith(start)) return null;
    const key = decodeURIComponent(url.pathname.slice(start.length));
    return objectKeyPattern.test(key) ? key : null;
  }

  return {
    kind: 's3',
    async issueUploadUrl(userId) {
      const command = new PutObjectCommand({
        Bucket: settings.bucket,
        Key: `${PREFIX}${userId}/${randomUUID()}`,
      });
      return getSignedUrl(client, command, { expiresIn: UPLOAD_URL_TTL_SECONDS });
    },
    ownedKey(url, userId) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return null;
      }
      const key = keyFrom(parsed, base) ?? (bucketBase ? keyFrom(parsed, bucketBase) : null);
      return key?.startsWith(`${userId}/`) ? key : null;
    },
    async inspect(key) {
      try {
        const head = await client.send(
          new HeadObjectCommand({ Bucket: settings.bucket, Key: `${PREFIX}${key}` }),
        );
        const object = await client.send(
          new GetObjectCommand({
            Bucket: settings.bucket,
            Key: `${PREFIX}${key}`,
            Range: `bytes=0-${IMAGE_SIGNATURE_BYTES - 1}`,
          }),
        );
        const bytes = object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
        return { size: head.ContentLength ?? 0, head: bytes };
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata
          ?.httpStatusCode;
        if (status === 404 || status === 403) return null;
        throw error;
      }
    },
    async remove(key) {
      await client.send(
        new DeleteObjectCommand({ Bucket: settings.bucket, Key: `${PREFIX}${key}` }),
      );
    },
    objectUrl: (key) => `${base}/${PREFIX}${key}`,
  };
}
