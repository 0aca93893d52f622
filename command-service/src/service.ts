import type { HostContext, ServicePart } from '@wagers/platform/service-host';
import { commandRouter } from './app.ts';
import type { SignInMailer } from './deps.ts';

/** The command side: every mutating /api call and the sign-in routes. */
export function commandService(context: HostContext, signInMailer: SignInMailer): ServicePart {
  return {
    name: 'command service',
    routers: [commandRouter({ ...context, signInMailer })],
  };
}
