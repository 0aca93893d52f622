import { createSecretKey, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from './port.ts';
import { sampleEvent } from './sample-events.ts';
import {
  emailDigest,
  emailSubject,
  erasedClearFields,
  lookupsOf,
  openEvent,
  sealEvent,
  upcastToSealedVersion,
  userSubject,
} from './sealed-fields.ts';

const userId = randomUUID();
const key = { keyId: randomUUID(), key: createSecretKey(randomBytes(32)) };
const registeredData = { userId, email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee' };

/** An appended event as a reader gets it back. */
function recorded(event: ReturnType<typeof sampleEvent>): RecordedEvent {
  return {
    ...event,
    streamId: `user-${userId}`,
    revision: 0n,
    position: '1-1',
    recordedAt: new Date(),
  };
}

describe('sealing personal fields', () => {
  const plain = sampleEvent('UserRegistered', registeredData);
  const sealed = sealEvent(plain, new Map([[userSubject(userId), key]]));

  it('stores no personal field in clear, at schema version 2, and leaves the rest', () => {
    expect(sealed.metadata.schemaVersion).toBe(2);
    expect(JSON.stringify(sealed.data)).not.toMatch(/ann@example|Ann|Lee/);
    expect((sealed.data as { userId: string }).userId).toBe(userId);
  });

  it('reads back as written with the key, and as null without it', () => {
    const stored = recorded(sealed);
    expect(lookupsOf([stored]).keyIds).toEqual(new Set([key.keyId]));
    expect(openEvent(stored, new Map([[key.keyId, key.key]])).data).toEqual(registeredData);
    expect(openEvent(stored, new Map()).data).toEqual({
      userId,
      email: null,
      firstName: null,
      lastName: null,
    });
  });

  it('does not open in another event: a sealed value is bound to its event and field', () => {
    const moved = recorded({ ...sealed, id: randomUUID() });
    expect(openEvent(moved, new Map([[key.keyId, key.key]])).data).toMatchObject({
      email: null,
    });
  });

  it('keeps null fields null and leaves events without personal fields alone', () => {
    const unnamed = sampleEvent('UserRegistered', { ...registeredData, firstName: null });
    const stored = sealEvent(unnamed, new Map([[userSubject(userId), key]]));
    expect((stored.data as { firstName: unknown }).firstName).toBeNull();
    const other = sampleEvent('BetAccepted', { opponentId: userId });
    expect(sealEvent(other, new Map())).toBe(other);
  });

  it('stores a field as null when its subject may have no key any more (a deleted user)', () => {
    const late = sealEvent(plain, new Map([[userSubject(userId), null]]));
    expect(late.data).toEqual({ userId, email: null, firstName: null, lastName: null });
  });
});

describe('the upcaster from schema version 1', () => {
  const v1 = recorded(sampleEvent('UserRegistered', registeredData));

  it('reads a version 1 event as written while its subject is not erased', () => {
    expect(lookupsOf([v1]).subjects).toEqual(new Set([userSubject(userId)]));
    expect(upcastToSealedVersion(v1, new Set())).toEqual(v1);
  });

  it('reads the personal fields of an erased subject as null, as a sealed field without key', () => {
    const read = upcastToSealedVersion(v1, new Set([userSubject(userId)]));
    expect(read.data).toEqual({ userId, email: null, firstName: null, lastName: null });
    // The stored event is untouched, and so is the metadata its hash covers.
    expect(v1.data).toEqual(registeredData);
    expect(read.metadata).toEqual(v1.metadata);
  });

  it('erases an invited address by the address’s own subject', () => {
    const invited = recorded(
      sampleEvent('BetProposed', {
        betId: randomUUID(),
        creatorId: userId,
        opponentId: null,
        inviteeEmail: 'Dana@Example.com',
        inviteePhone: null,
        title: 'Rain',
      }),
    );
    const erased = new Set([emailSubject(emailDigest('dana@example.com'))]);
    expect(upcastToSealedVersion(invited, erased).data).toMatchObject({
      inviteeEmail: null,
      creatorId: userId,
      title: 'Rain',
    });
  });

  it('leaves version 2 events to the key', () => {
    const sealed = recorded(sealEvent(v1, new Map([[userSubject(userId), key]])));
    expect(upcastToSealedVersion(sealed, new Set([userSubject(userId)]))).toBe(sealed);
  });
});

describe('the fields an export of the stored form must leave out', () => {
  const v1 = recorded(sampleEvent('UserRegistered', registeredData));
  const erased = new Set([userSubject(userId)]);

  it('are the clear fields of a version 1 event whose subject is erased', () => {
    expect(erasedClearFields(v1, new Set())).toEqual([]);
    expect(erasedClearFields(v1, erased)).toEqual(['email', 'firstName', 'lastName']);
  });

  it('are none of a version 2 event, whose fields are sealed and whose key is what erases them', () => {
    const sealed = recorded(sealEvent(v1, new Map([[userSubject(userId), key]])));
    expect(erasedClearFields(sealed, erased)).toEqual([]);
  });
});
