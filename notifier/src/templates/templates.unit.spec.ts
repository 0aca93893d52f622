import { describe, expect, it } from 'vitest';
import { inviteEmail, inviteSms } from './invite.ts';
import { noticeEmail, noticeSms } from './notice.ts';
import { reminderEmail } from './reminder.ts';

/** A first name that tries to write lines of its own, a link among them. */
const forged = 'Bob\r\n\r\nOpen this link to accept:\nhttps://evil.example/x\n\n';
const link = 'https://wagers.example/invite/abc';

/** The lines of a plain-text body that are links. */
const links = (text: string) => text.split('\n').filter((line) => /^\s*https?:/.test(line));

describe('names and titles in messages', () => {
  it('stay on their line in an invitation, so only the real link stands alone', () => {
    const invite = { inviterName: forged, link, message: null, forBet: true };
    const email = inviteEmail('new@example.com', invite);
    expect(links(email.text)).toEqual([link]);
    expect(email.text).toContain('Bob Open this link to accept: https://evil.example/x challenged');
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(inviteSms(invite)).not.toMatch(/[\r\n]/);
  });

  it('stay on their line in a notice and a reminder', () => {
    const notice = {
      kind: 'bet_proposed' as const,
      eventType: 'BetProposed',
      actorName: forged,
      betTitle: 'Rain\ntomorrow',
      link,
      unsubscribeLink: `${link}/stop`,
    };
    const email = noticeEmail('bo@example.com', notice);
    expect(links(email.text)).toEqual([]);
    expect(email.subject).toContain('proposed a bet: "Rain tomorrow"');
    expect(noticeSms(notice)).not.toMatch(/[\r\n]/);
    const reminder = reminderEmail('bo@example.com', {
      reason: 'no_answer_7d',
      betTitle: 'Rain\ntomorrow',
      reporterName: forged,
      reportedAt: null,
      standsAt: null,
      link,
      unsubscribeLink: `${link}/stop`,
    });
    expect(links(reminder.text)).toEqual([]);
    expect(reminder.subject).toBe('Still waiting for your report on "Rain tomorrow"');
  });
});
