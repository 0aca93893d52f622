/**
 * A place in the global event log. Both event-store adapters order the log by a pair of
 * unsigned integers (PostgreSQL: writing transaction id, then sequence; EventStoreDB: commit, then
 * prepare position), so a position is that pair written as "major-minor". Compare positions with
 * `comparePositions`, never as strings.
 */
export type GlobalPosition = string;

const pattern = /^(\d{1,20})-(\d{1,20})$/;

export function isGlobalPosition(value: string): boolean {
  return pattern.test(value);
}

export function parsePosition(position: GlobalPosition): [bigint, bigint] {
  const match = pattern.exec(position);
  if (!match?.[1] || !match[2]) throw new Error(`Not a global position: ${position}`);
  return [BigInt(match[1]), BigInt(match[2])];
}

export function formatPosition(major: bigint, minor: bigint): GlobalPosition {
  return `${major}-${minor}`;
}

export function comparePositions(a: GlobalPosition, b: GlobalPosition): -1 | 0 | 1 {
  const [a1, a2] = parsePosition(a);
  const [b1, b2] = parsePosition(b);
  if (a1 !== b1) return a1 < b1 ? -1 : 1;
  if (a2 !== b2) return a2 < b2 ? -1 : 1;
  return 0;
}

export function maxPosition(
  a: GlobalPosition | null | undefined,
  b: GlobalPosition | null | undefined,
): GlobalPosition | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return comparePositions(a, b) >= 0 ? a : b;
}

/** Response header carrying the position a command wrote; request header carrying the highest one a client has seen. */
export const POSITION_HEADER = 'x-wagers-position';
