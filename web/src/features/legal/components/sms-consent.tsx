import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { notificationSmsConsentText, site, smsConsentText } from '@/config/site.ts';
import { Bullets, LegalPage, LegalSection, Mailbox } from './legal-page.tsx';

/** How a phone number gets consent before Wagers texts it (for carriers and curious users). */
export function SmsConsent() {
  const link = 'text-indigo-800 underline underline-offset-4';
  return (
    <LegalPage
      title="SMS Consent and Opt-In"
      intro={
        <p>
          {site.name} sends text messages for two reasons only: to invite someone to the app, after
          the person sending the invitation confirms the recipient agreed to receive it (one message
          per invitation); and to tell a member about their own bets and friends, after they add
          their number and tick the consent box on their profile.
        </p>
      }
    >
      <LegalSection title="1. How consent is collected">
        <p>
          A signed-in {site.name} user enters a friend’s phone number on the Invite Friends screen
          or in the create-bet wizard. The checkbox below appears as soon as a phone number is
          typed, and the invitation cannot be sent until it is ticked:
        </p>
        <blockquote
          className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-slate-800"
          data-testid="consent-text"
        >
          {smsConsentText}
        </blockquote>
        <p>
          Clearing the phone number clears the checkbox. Each consent is recorded with the
          invitation it belongs to.
        </p>
      </LegalSection>
      <LegalSection title="2. What we send">
        <p>
          One text message per invitation, containing the inviter’s name and a personal link. For
          example:
        </p>
        <blockquote className="rounded-lg border border-slate-200 bg-slate-50 p-4 font-mono text-sm [overflow-wrap:anywhere] text-slate-800">
          Alex Rivera invited you to a friendly bet on {site.name}:
          https://wagers.example/invite/8F3K2Q. Msg &amp; data rates may apply. Reply STOP to opt
          out.
        </blockquote>
        <Bullets
          items={[
            'Message frequency: one message per invitation; for members, one per notification they chose.',
            'No marketing or promotional messages, ever.',
            'Message and data rates may apply.',
          ]}
        />
      </LegalSection>
      <LegalSection title="3. Notification texts to members">
        <p>
          A member may add their own mobile number on their profile. Texts go to it only after they
          tick, themselves, the box that reads “{notificationSmsConsentText}” It is unticked by
          default, and the time it was ticked is recorded. The member then picks which notifications
          come by text (a bet proposed to them, a bet answered, an outcome reported, a disagreement,
          a completed bet, an accepted invite, a friend request); none does until they pick it.
          Removing the number withdraws the consent. Every text ends with “Reply STOP to opt out.”
        </p>
      </LegalSection>
      <LegalSection title="4. Opting out and help">
        <p>
          Reply <strong>STOP</strong> to any message from {site.name} and we will not text that
          number again. Reply <strong>HELP</strong> for help, or write to{' '}
          <Mailbox address={site.supportEmail} />.
        </p>
      </LegalSection>
      <LegalSection title="5. Privacy">
        <p>
          Phone numbers and consent records are used only to deliver invitations and the
          notifications a member chose, and to honour opt-outs. They are never sold or shared for
          marketing. See our{' '}
          <Link className={link} to={paths.privacy}>
            Privacy Policy
          </Link>{' '}
          and{' '}
          <Link className={link} to={paths.terms}>
            Terms &amp; Conditions
          </Link>
          .
        </p>
      </LegalSection>
    </LegalPage>
  );
}
