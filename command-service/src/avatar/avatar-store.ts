import type { ImageType } from './image-type.ts';

/** Where avatar pictures live: the local disk (default) or an S3-compatible bucket. */
export interface AvatarStore {
  readonly kind: 'local' | 's3';
  /** A short-lived URL the browser PUTs the picture to, for a new object of this user's. */
  issueUploadUrl(userId: string): Promise<string>;
  /**
   * The object a URL names, when it is one this product issued to `userId` (its upload URL or the
   * object's own URL); null for anything else.
   */
  ownedKey(url: string, userId: string): string | null;
  /**
   * Size and first bytes of a stored object, and whether it was claimed (PUT /api/avatar) or is
   * still only an upload; null when nothing was uploaded there.
   */
  inspect(key: string): Promise<{ size: number; head: Uint8Array; claimed: boolean } | null>;
  /**
   * Moves an upload to where pictures are served from, to be served as `type` (the image its bytes
   * are, whatever type its uploader sent); until then nobody can read it.
   */
  claim(key: string, type: ImageType): Promise<void>;
  /** Removes an upload or a claimed object. */
  remove(key: string): Promise<void>;
  /**
   * Removes every picture and upload of a user (their whole folder), for their account's erasure;
   * removing what is already gone is no error, so it can run again.
   */
  removeAllOf(userId: string): Promise<void>;
  /** Deletes uploads nobody claimed that were made before `cutoff`; returns how many. */
  removeUnclaimedBefore(cutoff: Date): Promise<number>;
  /** The URL the product shows for the object (profileImageUrl). */
  objectUrl(key: string): string;
}

export const UPLOAD_URL_TTL_SECONDS = 300;

/**
 * An upload unclaimed this long after its URL was issued never will be: its URL has expired and
 * the page that asked for it gave up. The margin covers a slow upload and clocks that differ.
 */
export const UNCLAIMED_UPLOAD_TTL_SECONDS = UPLOAD_URL_TTL_SECONDS + 15 * 60;

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** A user id as it names a user's folder of objects. */
export const userFolderPattern = new RegExp(`^${uuid}$`);
/** Object keys are `{userId}/{objectId}`, both UUIDs. */
export const objectKeyPattern = new RegExp(`^(${uuid})/(${uuid})$`);
