import type { StoredEvent } from './log.ts';
import { shared, streams, type ReadResp } from './protocol.ts';

type Uuid = InstanceType<typeof shared.UUID>;

export const empty = () => new shared.Empty();

export function streamIdentifier(name: string) {
  return new shared.StreamIdentifier().setStreamName(Buffer.from(name, 'utf8'));
}

export const streamName = (identifier: InstanceType<typeof shared.StreamIdentifier> | undefined) =>
  Buffer.from(identifier?.getStreamName_asU8() ?? new Uint8Array()).toString('utf8');

/** An id in either form the protocol allows: a string, or two signed 64-bit halves. */
export function uuidText(uuid: Uuid | undefined): string | null {
  if (!uuid) return null;
  if (uuid.hasString()) return uuid.getString();
  if (!uuid.hasStructured()) return null;
  const halves = uuid.getStructured()!;
  const bytes = Buffer.alloc(16);
  // Signed on the server's side, read as unsigned by some clients: both name the same 64 bits.
  bytes.writeBigInt64BE(BigInt.asIntN(64, BigInt(halves.getMostSignificantBits())), 0);
  bytes.writeBigInt64BE(BigInt.asIntN(64, BigInt(halves.getLeastSignificantBits())), 8);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function uuid(text: string, structured: boolean): Uuid {
  if (!structured) return new shared.UUID().setString(text);
  const bytes = Buffer.from(text.replaceAll('-', ''), 'hex');
  return new shared.UUID().setStructured(
    new shared.UUID.Structured()
      .setMostSignificantBits(bytes.readBigInt64BE(0).toString())
      .setLeastSignificantBits(bytes.readBigInt64BE(8).toString()),
  );
}

/** A stored event as every read and subscription hands it over. */
export function eventMessage(event: StoredEvent, structuredIds: boolean): ReadResp {
  const position = event.position.toString();
  const recorded = new streams.ReadResp.ReadEvent.RecordedEvent()
    .setId(uuid(event.id, structuredIds))
    .setStreamIdentifier(streamIdentifier(event.streamId))
    .setStreamRevision(event.revision.toString())
    .setCommitPosition(position)
    .setPreparePosition(position)
    .setData(event.data)
    .setCustomMetadata(event.customMetadata);
  recorded
    .getMetadataMap()
    .set('type', event.type)
    .set('content-type', event.contentType)
    .set('created', event.createdTicks.toString());
  return new streams.ReadResp().setEvent(
    new streams.ReadResp.ReadEvent().setEvent(recorded).setCommitPosition(position),
  );
}
