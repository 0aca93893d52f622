import { Router } from 'express';
import {
  AVATAR_MAX_BYTES,
  avatarUploadUrlRequestSchema,
  setAvatarRequestSchema,
} from '@wagers/contracts/api/profile';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { handle, loadRead } from '@wagers/platform/aggregate';
import { invalid } from '@wagers/platform/errors';
import { parseInput } from '@wagers/platform/http/validate';
import { rateLimits } from '@wagers/platform/limits/rate-limits';
import { commandContext, recordWrite } from '../context.ts';
import type { CommandServiceDeps } from '../deps.ts';
import { loadUserView } from '../users/load-user.ts';
import { userAggregate } from '@wagers/domain/users/user';
import type { AvatarStores } from './create-store.ts';
import { detectImageType } from './image-type.ts';
import { localAvatarRouter } from './local-routes.ts';
import { unclaimedUploadSweeper } from './sweeper.ts';
import { NOT_AN_IMAGE, TOO_LARGE } from './upload-body.ts';

/**
 * Avatar: a signed upload URL, then PUT /api/avatar with it once the picture is there, which
 * claims the upload. Uploads never claimed are swept away.
 */
export function avatarRouter(deps: CommandServiceDeps, { store, local }: AvatarStores): Router {
  const sweeper = unclaimedUploadSweeper(store, deps);
  const router = Router();
  const limits = rateLimits(deps.pool, deps.runtime.now);

  router.post('/api/avatar/upload-url', requireUser, async (req, res) => {
    parseInput(avatarUploadUrlRequestSchema, req.body);
    await limits.consume({ rule: 'avatar-uploads-per-user', key: currentUserId(req) });
    sweeper.nudge();
    res.json({ uploadURL: await store.issueUploadUrl(currentUserId(req)) });
  });

  router.put('/api/avatar', requireUser, async (req, res) => {
    const { avatarURL } = parseInput(setAvatarRequestSchema, req.body);
    const userId = currentUserId(req);
    const key = store.ownedKey(avatarURL, userId);
    if (!key) throw invalid('avatarURL', 'This is not a picture you uploaded here');
    const object = await store.inspect(key);
    if (!object) throw invalid('avatarURL', 'Upload the picture first');
    const type = detectImageType(object.head);
    if (object.size > AVATAR_MAX_BYTES || !type) {
      await store.remove(key);
      throw invalid('avatarURL', object.size > AVATAR_MAX_BYTES ? TOO_LARGE : NOT_AN_IMAGE);
    }
    if (!object.claimed) await store.claim(key, type);
    const avatarUrl = store.objectUrl(key);
    // The picture this one replaces, from the state the command decides on.
    const { state, read } = await loadRead(deps.store, userAggregate, userId);
    const result = await handle(
      deps.store,
      userAggregate,
      userId,
      { type: 'ChangeAvatar', data: { userId, avatarUrl } },
      commandContext(req, deps.runtime),
      { read },
    );
    await recordWrite(deps.sessions, req, res, result.position);
    const previousUrl = state.status === 'registered' ? state.avatarUrl : null;
    const previous = previousUrl ? store.ownedKey(previousUrl, userId) : null;
    if (result.position && previous && previous !== key) {
      // Best effort: the change is made; a picture left behind goes with the account's erasure.
      await store.remove(previous).catch((error: unknown) => {
        deps.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'the replaced avatar was not removed',
        );
      });
    }
    res.json(await loadUserView(deps.store, userId));
  });

  if (local) router.use(localAvatarRouter(local, deps));
  return router;
}
