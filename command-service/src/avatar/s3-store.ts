import { randomUUID } from 'node:crypto';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { IMAGE_SIGNATURE_BYTES } from './image-type.ts';
import {
  objectKeyPattern,
  UPLOAD_URL_TTL_SECONDS,
  userFolderPattern,
  type AvatarStore,
} from './avatar-store.ts';

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
/** Where uploads wait until claimed; a bucket lifecycle rule on it is a fine second sweep. */
const PENDING = 'pending/';

/**
 * Avatars in any S3-compatible bucket (MinIO in docker-compose). The browser PUTs straight to a
 * presigned URL under `pending/`, so the bucket cannot check the bytes; PUT /api/avatar reads
 * them back first and copies the picture to `avatars/`, where it is read from.
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

  function keyFrom(url: URL, base: string, folder: string): string | null {
    const root = new URL(base);
    if (url.origin !== root.origin) return null;
    const start = `${root.pathname.replace(/\/$/, '')}/${folder}`;
    if (!url.pathname.startsWith(start)) return null;
    let key: string;
    try {
      key = decodeURIComponent(url.pathname.slice(start.length));
    } catch {
      return null; // a broken escape (`%zz`) names no object of ours
    }
    return objectKeyPattern.test(key) ? key : null;
  }

  async function headOf(objectKey: string): Promise<{ size: number; head: Uint8Array } | null> {
    try {
      const head = await client.send(
        new HeadObjectCommand({ Bucket: settings.bucket, Key: objectKey }),
      );
      const object = await client.send(
        new GetObjectCommand({
          Bucket: settings.bucket,
          Key: objectKey,
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
  }

  const remove = (objectKey: string) =>
    client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: objectKey }));

  return {
    kind: 's3',
    async issueUploadUrl(userId) {
      const command = new PutObjectCommand({
        Bucket: settings.bucket,
        Key: `${PENDING}${userId}/${randomUUID()}`,
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
      const key =
        keyFrom(parsed, base, PREFIX) ??
        keyFrom(parsed, base, PENDING) ??
        (bucketBase
          ? (keyFrom(parsed, bucketBase, PREFIX) ?? keyFrom(parsed, bucketBase, PENDING))
          : null);
      return key?.startsWith(`${userId}/`) ? key : null;
    },
    async inspect(key) {
      const claimed = await headOf(`${PREFIX}${key}`);
      if (claimed) return { ...claimed, claimed: true };
      const pending = await headOf(`${PENDING}${key}`);
      return pending ? { ...pending, claimed: false } : null;
    },
    async claim(key, type) {
      // The upload URL signs no type, so the uploader chose the stored one: the served copy takes
      // the type of its bytes instead, or a picture that begins like a PNG and goes on as HTML
      // would be served as a page from the pictures' origin.
      await client.send(
        new CopyObjectCommand({
          Bucket: settings.bucket,
          CopySource: `${settings.bucket}/${PENDING}${key}`,
          Key: `${PREFIX}${key}`,
          MetadataDirective: 'REPLACE',
          ContentType: type,
          ContentDisposition: 'inline',
        }),
      );
      await remove(`${PENDING}${key}`);
    },
    async remove(key) {
      await remove(`${PREFIX}${key}`);
      await remove(`${PENDING}${key}`);
    },
    async removeAllOf(userId) {
      if (!userFolderPattern.test(userId)) return;
      for (const prefix of [`${PREFIX}${userId}/`, `${PENDING}${userId}/`]) {
        let token: string | undefined;
        do {
          const page = await client.send(
            new ListObjectsV2Command({
              Bucket: settings.bucket,
              Prefix: prefix,
              ContinuationToken: token,
            }),
          );
          for (const object of page.Contents ?? []) if (object.Key) await remove(object.Key);
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
      }
    },
    async removeUnclaimedBefore(cutoff) {
      let removed = 0;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: settings.bucket,
            Prefix: PENDING,
            ContinuationToken: token,
          }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key && object.LastModified && object.LastModified < cutoff) {
            await remove(object.Key);
            removed += 1;
          }
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return removed;
    },
    objectUrl: (key) => `${base}/${PREFIX}${key}`,
  };
}
