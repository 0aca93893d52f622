import { describe, expect, it } from 'vitest';
import type { UserEvent } from '@wagers/contracts/events/user';
import { emailDigest } from '@wagers/platform/event-store/sealed-fields';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import { userDecider, type UserCommand } from './user.ts';

const spec = deciderSpec(userDecider);
const userId = '11111111-1111-4111-8111-111111111111';
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId, email: 'ann@example.com', firstName: null, lastName: null },
};
const named: UserEvent = {
  type: 'ProfileUpdated',
  data: { userId, firstName: 'Ann', lastName: 'Lee' },
};

describe('user decider', () => {
  describe('unregistered', () => {
    it('registers', () =>
      spec
        .given([])
        .when({ type: 'RegisterUser', data: { userId, email: 'ann@example.com' } })
        .then([registered]));

    it('has no profile or avatar to change', () => {
      spec
        .given([])
        .when({ type: 'UpdateProfile', data: { userId, firstName: 'A', lastName: 'B' } })
        .thenFails('not_found');
      spec
        .given([])
        .when({ type: 'ChangeAvatar', data: { userId, avatarUrl: '/avatars/x' } })
        .thenFails('not_found');
    });
  });

  describe('registered', () => {
    it('registers again as a no-op, but never with another email', () => {
      spec
        .given([registered])
        .when({ type: 'RegisterUser', data: { userId, email: 'ann@example.com' } })
        .thenNothing();
      spec
        .given([registered])
        .when({ type: 'RegisterUser', data: { userId, email: 'x@example.com' } })
        .thenFails('conflict');
    });

    it('updates the names', () =>
      spec
        .given([registered])
        .when({ type: 'UpdateProfile', data: { userId, firstName: 'Ann', lastName: 'Lee' } })
        .then([named]));

    it('records nothing when the names are unchanged', () =>
      spec
        .given([registered, named])
        .when({ type: 'UpdateProfile', data: { userId, firstName: 'Ann', lastName: 'Lee' } })
        .thenNothing());

    it('changes the avatar, once per new picture', () => {
      const changed: UserEvent = {
        type: 'AvatarChanged',
        data: { userId, avatarUrl: '/avatars/u/1' },
      };
      spec
        .given([registered])
        .when({ type: 'ChangeAvatar', data: { userId, avatarUrl: '/avatars/u/1' } })
        .then([changed]);
      spec
        .given([registered, changed])
        .when({ type: 'ChangeAvatar', data: { userId, avatarUrl: '/avatars/u/1' } })
        .thenNothing();
    });

    describe('phone number', () => {
      const at = '2026-01-02T03:04:05.000Z';
      const phone = '+14155550123';
      const setPhone = (number: string | null, smsConsent: boolean) =>
        ({ type: 'SetPhone', data: { userId, phone: number, smsConsent, at } }) as const;
      const changed = (number: string | null, smsConsent: boolean): UserEvent => ({
        type: 'PhoneChanged',
        data: { userId, phone: number, smsConsent, consentedAt: smsConsent ? at : null },
      });

      it('records a number with the time consent was given, and without consent by default', () => {
        spec
          .given([registered])
          .when(setPhone(phone, true))
          .then([changed(phone, true)]);
        spec
          .given([registered])
          .when(setPhone(phone, false))
          .then([changed(phone, false)]);
      });

      it('records nothing when nothing changes', () =>
        spec
          .given([registered, changed(phone, true)])
          .when(setPhone(phone, true))
          .thenNothing());

      it('withdraws consent with the number, and a consent without a number is no consent', () => {
        spec
          .given([registered, changed(phone, true)])
          .when(setPhone(null, false))
          .then([changed(null, false)]);
        spec
          .given([registered, changed(phone, true)])
          .when(setPhone(null, true))
          .then([changed(null, false)]);
      });

      it('asks consent anew for a new number', () =>
        spec
          .given([registered, changed(phone, true)])
          .when(setPhone('+447700900123', false))
          .then([changed('+447700900123', false)]));

      it('needs an account', () =>
        spec.given([]).when(setPhone(phone, true)).thenFails('not_found'));
    });
  });

  describe('deleting the account', () => {
    const remove = (confirmEmail: string): UserCommand => ({
      type: 'DeleteAccount',
      data: { userId, confirmEmail },
    });
    const deleted: UserEvent = {
      type: 'AccountDeleted',
      data: { userId, emailDigest: emailDigest('ann@example.com'), phones: [] },
    };

    it('deletes when the account’s own address is typed, in any case and spacing', () =>
      spec.given([registered, named]).when(remove('  Ann@Example.COM ')).then([deleted]));

    it('names the account’s number, for the erasure to erase it too', () => {
      const phone: UserEvent = {
        type: 'PhoneChanged',
        data: { userId, phone: '+14155550123', smsConsent: true, consentedAt: null },
      };
      spec
        .given([registered, phone])
        .when(remove('ann@example.com'))
        .then([{ ...deleted, data: { ...deleted.data, phones: ['+14155550123'] } }]);
    });

    it('names the address only by its digest in the event', () => {
      const state = [registered].reduce(userDecider.evolve, userDecider.initialState());
      const events = userDecider.decide(remove('ann@example.com'), state);
      expect(JSON.stringify(events)).not.toContain('example.com');
    });

    it('is refused with another address, naming the confirmation field', () =>
      spec
        .given([registered])
        .when(remove('someone@example.com'))
        .thenFails('validation_failed', /confirm/));

    it('has nothing to delete before registration or after deletion', () => {
      spec.given([]).when(remove('ann@example.com')).thenFails('not_found');
      spec.given([registered, deleted]).when(remove('ann@example.com')).thenFails('not_found');
    });

    it('changes nothing more once deleted: names, picture, a late registration', () => {
      spec
        .given([registered, deleted])
        .when({ type: 'UpdateProfile', data: { userId, firstName: 'A', lastName: 'B' } })
        .thenFails('not_found');
      spec
        .given([registered, deleted])
        .when({ type: 'ChangeAvatar', data: { userId, avatarUrl: '/avatars/x' } })
        .thenFails('not_found');
      spec
        .given([registered, deleted])
        .when({ type: 'RegisterUser', data: { userId, email: 'ann@example.com' } })
        .thenNothing();
    });

    it('reads an account whose address was erased as registered, and refuses to delete it again', () =>
      spec
        .given([{ ...registered, data: { ...registered.data, email: null } }])
        .when(remove('ann@example.com'))
        .thenFails('not_found'));
  });
});
