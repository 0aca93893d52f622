/** Avatar limits (spec section 9), free of zod for the browser. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const avatarContentTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
