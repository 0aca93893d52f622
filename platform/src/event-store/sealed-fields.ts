import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import {
  personalFields,
  SEALED_SCHEMA_VERSION,
  type DataSubject,
} from '@wagers/contracts/events/personal-data';
import { isMetadataObject } from './event-hash.ts';
import type { EventToAppend, RecordedEvent } from './port.ts';

/**
 * How a personal field is stored: `sealed:{keyId}:{base64 of iv, tag, ciphertext}`, AES-256-GCM
 * over the field's JSON with the event id and field name as associated data, so a sealed value
 * cannot be moved to another event or field.
 */
const PREFIX = 'sealed:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** SHA-256 of an address, lowercased and trimmed: how the product names an address it must not show. */
export function emailDigest(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

/** SQL for `emailDigest` of a text expression, to find rows by an address's digest alone. */
export const emailDigestSql = (expression: string) =>
  `encode(sha256(convert_to(lower(btrim(${expression})), 'UTF8')), 'hex')`;

/** A phone number's digest, as its subject and its per-number counters name it. */
export const phoneDigest = (phone: string) =>
  createHash('sha256').update(phone.trim()).digest('hex');

/** The data subjects the keys are kept for: users by id, addresses and numbers by digest. */
export const userSubject = (userId: string) => `user:${userId}`;
export const emailSubject = (digest: string) => `email:${digest}`;
/** A number's subject, from the number itself (E.164): no digest of a number is kept anywhere. */
export const phoneSubject = (phone: string) => `phone:${phoneDigest(phone)}`;

type Data = Record<string, unknown>;

/** The personal fields of one event type, or undefined for an event that has none. */
export const fieldsOf = (type: string) => personalFields[type];

/** Whose key seals one field's value. */
export function subjectOf(subject: DataSubject, data: Data, value: unknown): string {
  if (subject === 'email-address') return emailSubject(emailDigest(String(value)));
  if (subject === 'phone-number') return phoneSubject(String(value));
  return userSubject(String(data[subject.user]));
}

/** The values to seal of one event, with their subjects (null and absent values stay as they are). */
export function personalValues(type: string, data: unknown): { field: string; subject: string }[] {
  const fields = fieldsOf(type);
  if (!fields || typeof data !== 'object' || data === null) return [];
  const record = data as Data;
  return Object.entries(fields)
    .filter(([field]) => record[field] !== null && record[field] !== undefined)
    .map(([field, subject]) => ({ field, subject: subjectOf(subject, record, record[field]) }));
}

const associated = (eventId: string, field: string) => Buffer.from(`${eventId}/${field}`);

export function seal(value: unknown, key: { keyId: string; key: KeyObject }, aad: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  const sealed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  return `${PREFIX}${key.keyId}:${sealed}`;
}

/** The key id a stored value was sealed with, or null for a value that is not sealed. */
export function sealedKeyId(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return null;
  return value.slice(PREFIX.length, value.indexOf(':', PREFIX.length));
}

/** The value as written, or null when its key is gone (erased) or it does not open. */
function open(value: string, key: KeyObject | undefined, aad: Buffer): unknown {
  if (!key) return null;
  const bytes = Buffer.from(value.slice(value.indexOf(':', PREFIX.length) + 1), 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(aad);
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES), undefined, 'utf8');
    return JSON.parse(text + decipher.final('utf8')) as unknown;
  } catch {
    return null;
  }
}

/** The event as stored: its personal fields sealed with the keys given, schema version 2. */
export function sealEvent(
  event: EventToAppend,
  keys: Map<string, { keyId: string; key: KeyObject } | null>,
): EventToAppend {
  if (!fieldsOf(event.type)) return event;
  const data = { ...(event.data as Data) };
  for (const { field, subject } of personalValues(event.type, event.data)) {
    const key = keys.get(subject);
    // A deleted account's key is never made again: whatever still names it is stored erased.
    data[field] = key ? seal(data[field], key, associated(event.id, field)) : null;
  }
  return { ...event, data, metadata: { ...event.metadata, schemaVersion: SEALED_SCHEMA_VERSION } };
}

/**
 * The schema version an event was stored with, or null when its metadata was edited into
 * something without one (null, or no number there): such an event is read both ways, its sealed
 * values opened and its clear ones hidden once their subject is erased.
 */
function storedVersion(event: RecordedEvent): number | null {
  const metadata: unknown = event.metadata;
  if (!isMetadataObject(metadata)) return null;
  const version = metadata.schemaVersion;
  return typeof version === 'number' ? version : null;
}

/** What a reader must look up to open a page: key ids of sealed values, subjects of clear ones. */
export function lookupsOf(events: RecordedEvent[]): { keyIds: Set<string>; subjects: Set<string> } {
  const keyIds = new Set<string>();
  const subjects = new Set<string>();
  for (const event of events) {
    const fields = fieldsOf(event.type);
    if (!fields || typeof event.data !== 'object' || event.data === null) continue;
    const version = storedVersion(event);
    if (version === null || version >= SEALED_SCHEMA_VERSION) {
      const data = event.data as Data;
      for (const field of Object.keys(fields)) {
        const keyId = sealedKeyId(data[field]);
        if (keyId) keyIds.add(keyId);
      }
    }
    if (version === null || version < SEALED_SCHEMA_VERSION) {
      for (const { subject } of personalValues(event.type, event.data)) subjects.add(subject);
    }
  }
  return { keyIds, subjects };
}

/**
 * A version 2 event as its writer wrote it: sealed fields opened, or null where erased. The data
 * is opened when it is first read, so a reader that skips the event (most projectors skip most
 * types) pays nothing for it.
 */
export function openEvent(event: RecordedEvent, keys: Map<string, KeyObject>): RecordedEvent {
  const fields = fieldsOf(event.type);
  if (!fields) return event;
  const stored = event.data as Data;
  let opened: unknown;
  return {
    ...event,
    get data() {
      opened ??= openData(event.id, stored, Object.keys(fields), keys);
      return opened;
    },
    set data(value: unknown) {
      opened = value;
    },
  };
}

function openData(eventId: string, stored: Data, fields: string[], keys: Map<string, KeyObject>) {
  let data: Data | null = null;
  for (const field of fields) {
    const value = stored[field];
    const keyId = sealedKeyId(value);
    if (keyId === null) continue;
    data ??= { ...stored };
    data[field] = open(value as string, keys.get(keyId), associated(eventId, field));
  }
  return data ?? stored;
}

/**
 * The first real upcaster: the data of an event written before personal fields were sealed
 * (schema version 1) read as version 2 data. Its fields are in clear in the log and stay so
 * (events are never rewritten); those of an erased subject read as null, exactly as a sealed field
 * whose key is gone. The metadata stays as stored, so the event's hash can still be recomputed.
 */
export function upcastToSealedVersion(event: RecordedEvent, erased: Set<string>): RecordedEvent {
  const version = storedVersion(event);
  if ((version !== null && version >= SEALED_SCHEMA_VERSION) || !fieldsOf(event.type)) return event;
  if (typeof event.data !== 'object' || event.data === null) return event;
  const data = { ...(event.data as Data) };
  for (const { field, subject } of personalValues(event.type, event.data)) {
    if (erased.has(subject)) data[field] = null;
  }
  return { ...event, data };
}

/**
 * The personal fields an event holds in clear although their subject is erased: those of an event
 * written before personal fields were sealed (schema version 1, or metadata edited into none),
 * which the log keeps as they were. Read through the store they are null (the upcaster above);
 * whatever shows the stored form (the audit export) must leave them out.
 */
export function erasedClearFields(event: RecordedEvent, erased: ReadonlySet<string>): string[] {
  const version = storedVersion(event);
  if (version !== null && version >= SEALED_SCHEMA_VERSION) return [];
  const data = event.data as Data;
  return personalValues(event.type, event.data)
    .filter(({ field, subject }) => sealedKeyId(data[field]) === null && erased.has(subject))
    .map(({ field }) => field);
}
