import { Router, type RequestHandler } from 'express';
import { conflict, forbidden, invalid, notFound } from '@wagers/platform/errors';
import type { CommandServiceDeps } from '../deps.ts';
import { detectImageType } from './image-type.ts';
import { LOCAL_OBJECT_PATH, LOCAL_UPLOAD_PATH, type LocalAvatarStore } from './local-store.ts';
import { imageBody, isAvatarContentType, NOT_AN_IMAGE } from './upload-body.ts';

/** The local store's two doors: PUT to a signed upload URL, GET a stored picture. */
export function localAvatarRouter(store: LocalAvatarStore, deps: CommandServiceDeps): Router {
  const router = Router();

  const upload = `${LOCAL_UPLOAD_PATH}/:userId/:objectId`;
  const keyOf = (params: { userId?: unknown; objectId?: unknown }) =>
    `${String(params.userId)}/${String(params.objectId)}`;

  const signed: RequestHandler = (req, _res, next) => {
    const expires = typeof req.query.expires === 'string' ? req.query.expires : '';
    const signature = typeof req.query.signature === 'string' ? req.query.signature : '';
    if (!store.verifyUpload(keyOf(req.params), expires, signature, deps.runtime.now())) {
      throw forbidden('This upload link is not valid or has expired');
    }
    next();
  };

  router.put(upload, signed, imageBody, async (req, res) => {
    const declared = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const bytes: unknown = req.body;
    if (
      !isAvatarContentType(declared) ||
      !Buffer.isBuffer(bytes) ||
      detectImageType(bytes) !== declared
    ) {
      throw invalid('file', NOT_AN_IMAGE);
    }
    if (!(await store.write(keyOf(req.params), bytes)))
      throw conflict('This upload link was already used');
    res.json({ status: 'uploaded' });
  });

  router.get(`${LOCAL_OBJECT_PATH}/:userId/:objectId`, async (req, res) => {
    const key = keyOf(req.params);
    const object = await store.inspect(key);
    // An upload nobody claimed is not shown to anyone.
    const type = object?.claimed ? detectImageType(object.head) : null;
    if (!type) throw notFound('No such picture');
    res.sendFile(store.filePath(key), {
      headers: { 'content-type': type, 'x-content-type-options': 'nosniff' },
      maxAge: '365d',
      immutable: true,
      // The default folder is under .data; the key itself is checked, so dot folders above it are fine.
      dotfiles: 'allow',
    });
  });

  return router;
}
