import express, { type RequestHandler } from 'express';
import { AVATAR_MAX_BYTES, avatarContentTypes } from '@wagers/contracts/api/profile';
import { invalid } from '@wagers/platform/errors';

export const NOT_AN_IMAGE = 'Please select an image file';
export const TOO_LARGE = 'Please select an image smaller than 5MB';

/** The upload body, at most 5 MB; a larger one is a 400 naming the file, like any bad input. */
export const imageBody: RequestHandler = (req, res, next) => {
  express.raw({ type: () => true, limit: AVATAR_MAX_BYTES })(req, res, (error?: unknown) => {
    if (
      typeof error === 'object' &&
      error !== null &&
      'type' in error &&
      error.type === 'entity.too.large'
    ) {
      next(invalid('file', TOO_LARGE));
      return;
    }
    next(error);
  });
};

export const isAvatarContentType = (value: string): value is (typeof avatarContentTypes)[number] =>
  (avatarContentTypes as readonly string[]).includes(value);
