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
  /** Size and first bytes of a stored object; null when nothing was uploaded there. */
  inspect(key: string): Promise<{ size: number; head: Uint8Array } | null>;
  remove(key: string): Promise<void>;
  /** The URL the product shows for the object (profileImageUrl). */
  objectUrl(key: string): string;
}

export const UPLOAD_URL_TTL_SECONDS = 300;

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Object keys are `{userId}/{objectId}`, both UUIDs. */
export const objectKeyPattern = new RegExp(`^(${uuid})/(${uuid})$`);
