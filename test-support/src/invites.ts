import { inviteStream } from '@wagers/contracts/events/invite';

/** The invite's code, as the event log holds it, from the code its link carries. */
export const inviteCodeOfLink = (linkCode: string) => linkCode.split('.')[0]!;

/** The stream of the invite a link's code names. */
export const inviteStreamOfLink = (linkCode: string) => inviteStream(inviteCodeOfLink(linkCode));
