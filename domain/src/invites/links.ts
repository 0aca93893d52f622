/** The page a newcomer opens to see and accept an invite. */
export const inviteLink = (publicUrl: string, code: string) =>
  `${publicUrl.replace(/\/$/, '')}/invite/${code}`;
