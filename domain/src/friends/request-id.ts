/**
 * A friend request's id names its pair and its number within the pair's friendship stream, so a
 * command finds the stream from the id alone, without asking a read model: `{sender}_{receiver}_{n}`.
 */
export function formatRequestId(senderId: string, receiverId: string, number: number): string {
  return `${senderId}_${receiverId}_${number}`;
}

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const pattern = new RegExp(`^(${uuid})_(${uuid})_([1-9]\\d{0,8})$`);

export function parseRequestId(id: string): { senderId: string; receiverId: string } | null {
  const match = pattern.exec(id);
  if (!match?.[1] || !match[2]) return null;
  return { senderId: match[1], receiverId: match[2] };
}
