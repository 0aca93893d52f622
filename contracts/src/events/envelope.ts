/** Metadata written with every event. Never holds a token, a password or any other secret. */
export interface EventMetadata {
  /** The signed-in user whose command caused the event; null for the system. */
  actorId: string | null;
  correlationId: string;
  causationId: string | null;
  /** ISO 8601 time the command was decided, from the injected clock. */
  occurredAt: string;
  /** Schema version of the event's data. */
  schemaVersion: number;
  /**
   * SHA-256 over the event and the previous event's hash in its stream, set by the writer (see
   * docs/audit.md); absent on events written before hash chains.
   */
  hash?: string;
}

/** A domain event before it is stored: a past-tense type and its data. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}
