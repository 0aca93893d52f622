import { updateProfileRequestSchema } from '@wagers/contracts/api/profile';
import { userAggregate, type UserState } from '@wagers/domain/users/user';
import { handle } from '@wagers/platform/aggregate';
import { advanceUserSessions } from '@wagers/platform/auth/sessions';
import type { CommandContext } from '@wagers/platform/decider';
import type { CommandServiceDeps } from '../deps.ts';
import { loadUser } from '../users/load-user.ts';

/**
 * A provider that tells the person's name once (Apple, on the first sign-in) fills in an account
 * that has no name yet; a name the person set stays. A new account is registered by a process
 * manager, so this waits for it (as long as a signed-in command would) before it decides.
 */
export async function keepProviderName(
  deps: Pick<CommandServiceDeps, 'store' | 'pool' | 'logger' | 'config'>,
  userId: string,
  name: { firstName: string | null; lastName: string | null },
  context: CommandContext,
): Promise<void> {
  const parsed = updateProfileRequestSchema.safeParse(name);
  if (!parsed.success) return;
  const user = await waitForRegistration(deps, userId);
  if (user.status !== 'registered') {
    deps.logger.warn({ userId }, 'account not registered in time; the provider name is not kept');
    return;
  }
  if (user.firstName) return;
  const result = await handle(
    deps.store,
    userAggregate,
    userId,
    { type: 'UpdateProfile', data: { userId, ...parsed.data } },
    { ...context, actorId: userId },
  );
  if (result.position) await advanceUserSessions(deps.pool, userId, result.position);
}

/** The account as its stream has it, once a process manager has registered it (or time is up). */
export async function waitForRegistration(
  deps: Pick<CommandServiceDeps, 'store' | 'config'>,
  userId: string,
): Promise<UserState> {
  const deadline = Date.now() + deps.config.READ_YOUR_WRITES_TIMEOUT_MS;
  let user = await loadUser(deps.store, userId);
  while (user.status !== 'registered' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    user = await loadUser(deps.store, userId);
  }
  return user;
}
