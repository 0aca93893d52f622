import type { Logger } from '@wagers/platform/logger';
import type { Runtime } from '@wagers/platform/runtime';
import { UNCLAIMED_UPLOAD_TTL_SECONDS, type AvatarStore } from './avatar-store.ts';

const EVERY_MS = 10 * 60_000;

/**
 * Deletes uploads that were never claimed, every ten minutes and whenever someone asks for an
 * upload URL (at most once a minute): a person who uploads picture after picture without saving
 * one leaves nothing behind for long.
 */
export function unclaimedUploadSweeper(
  store: AvatarStore,
  deps: { runtime: Runtime; logger: Logger },
): { nudge(): void } {
  let running: Promise<void> | null = null;
  let lastRun = Number.NEGATIVE_INFINITY;
  const sweep = () => {
    if (running) return;
    const now = deps.runtime.now();
    lastRun = now.getTime();
    const cutoff = new Date(now.getTime() - UNCLAIMED_UPLOAD_TTL_SECONDS * 1000);
    running = store
      .removeUnclaimedBefore(cutoff)
      .then((removed) => {
        if (removed > 0) deps.logger.info({ removed }, 'unclaimed avatar uploads removed');
      })
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'avatar upload sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  setInterval(sweep, EVERY_MS).unref();
  return {
    nudge() {
      if (deps.runtime.now().getTime() - lastRun >= 60_000) sweep();
    },
  };
}
