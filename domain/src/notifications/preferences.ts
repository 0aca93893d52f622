import type { NotificationKind } from '@wagers/contracts/api/notifications';
import {
  notificationPreferenceEventSchemas,
  notificationPreferencesStream,
  type NotificationPreferenceEvent,
} from '@wagers/contracts/events/notification-preferences';
import { defineAggregate } from '@wagers/platform/aggregate';
import { schemaReader, type Decider } from '@wagers/platform/decider';

/**
 * The kinds a person switched off for email (every other kind is emailed) and the kinds they
 * switched on for text messages (none by default; texts also need the user's SMS consent).
 */
export interface PreferencesState {
  emailOff: NotificationKind[];
  smsOn: NotificationKind[];
}

export type PreferencesCommand =
  | {
      type: 'SetEmailNotifications';
      data: {
        userId: string;
        kind: NotificationKind;
        email: boolean;
        via: 'profile' | 'unsubscribe_link';
      };
    }
  | {
      type: 'SetSmsNotifications';
      data: { userId: string; kind: NotificationKind; sms: boolean; via: 'profile' };
    };

export const emailsKind = (state: PreferencesState, kind: NotificationKind) =>
  !state.emailOff.includes(kind);

/** Whether the person chose texts for this kind (their consent and STOP are checked apart). */
export const textsKind = (state: PreferencesState, kind: NotificationKind) =>
  state.smsOn.includes(kind);

const without = (kinds: NotificationKind[], kind: NotificationKind) =>
  kinds.filter((other) => other !== kind);

export const preferencesDecider: Decider<
  PreferencesState,
  PreferencesCommand,
  NotificationPreferenceEvent
> = {
  initialState: () => ({ emailOff: [], smsOn: [] }),
  /** Setting what is already set (a second click on an unsubscribe link) records nothing. */
  decide(command, state) {
    switch (command.type) {
      case 'SetEmailNotifications':
        if (emailsKind(state, command.data.kind) === command.data.email) return [];
        return [{ type: 'EmailNotificationsChanged', data: command.data }];
      case 'SetSmsNotifications':
        if (textsKind(state, command.data.kind) === command.data.sms) return [];
        return [{ type: 'SmsNotificationsChanged', data: command.data }];
      default: {
        const unknown: never = command;
        return unknown;
      }
    }
  },
  evolve(state, event) {
    const { kind } = event.data;
    switch (event.type) {
      case 'EmailNotificationsChanged': {
        const emailOff = without(state.emailOff, kind);
        return { ...state, emailOff: event.data.email ? emailOff : [...emailOff, kind] };
      }
      case 'SmsNotificationsChanged': {
        const smsOn = without(state.smsOn, kind);
        return { ...state, smsOn: event.data.sms ? [...smsOn, kind] : smsOn };
      }
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};

/** notification-preferences-{userId}. */
export const preferencesAggregate = defineAggregate({
  stream: notificationPreferencesStream,
  decider: preferencesDecider,
  read: schemaReader<NotificationPreferenceEvent>(notificationPreferenceEventSchemas),
});
