import type { NotificationKind } from '@wagers/contracts/api/notifications';
import {
  notificationPreferenceEventSchemas,
  notificationPreferencesStream,
  type NotificationPreferenceEvent,
} from '@wagers/contracts/events/notification-preferences';
import { defineAggregate } from '@wagers/platform/aggregate';
import { schemaReader, type Decider } from '@wagers/platform/decider';

/** The kinds a person switched off for email; every other kind is emailed. */
export interface PreferencesState {
  emailOff: NotificationKind[];
}

export type PreferencesCommand = {
  type: 'SetEmailNotifications';
  data: {
    userId: string;
    kind: NotificationKind;
    email: boolean;
    via: 'profile' | 'unsubscribe_link';
  };
};

export const emailsKind = (state: PreferencesState, kind: NotificationKind) =>
  !state.emailOff.includes(kind);

export const preferencesDecider: Decider<
  PreferencesState,
  PreferencesCommand,
  NotificationPreferenceEvent
> = {
  initialState: () => ({ emailOff: [] }),
  /** Setting what is already set (a second click on an unsubscribe link) records nothing. */
  decide(command, state) {
    const { kind, email } = command.data;
    if (emailsKind(state, kind) === email) return [];
    return [{ type: 'EmailNotificationsChanged', data: command.data }];
  },
  evolve(state, event) {
    const others = state.emailOff.filter((kind) => kind !== event.data.kind);
    return { emailOff: event.data.email ? others : [...others, event.data.kind] };
  },
};

/** notification-preferences-{userId}. */
export const preferencesAggregate = defineAggregate({
  stream: notificationPreferencesStream,
  decider: preferencesDecider,
  read: schemaReader<NotificationPreferenceEvent>(notificationPreferenceEventSchemas),
});
