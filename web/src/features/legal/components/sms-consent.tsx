import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { site, smsConsentText } from '@/config/site.ts';
import { Bullets, LegalPage, LegalSection, Mailbox } from './legal-page.tsx';

/** How a phone number gets consent before Wagers texts it (for carriers and curious users). */
export function SmsConsent() {
  const link = 'text-indigo-800 underline underline-offset-4';
  return (
    <LegalPage
      title="SMS Consent and Opt-In"
      intro={
        <p>
          {site.name} sends a text message only to invite someone to the app, only after the person
          sending the invitation confirms the recipient agreed to receive it, and only one message
          per invitation.
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
            'Message frequency: one message per invitation. No recurring messages.',
            'No marketing or promotional messages, ever.',
            'Message and data rates may apply.',
          ]}
        />
      </LegalSection>
      <LegalSection title="3. Opting out and help">
        <p>
          Reply <strong>STOP</strong> to any message from {site.name} and we will not text that
          number again. Reply <strong>HELP</strong> for help, or write to{' '}
          <Mailbox address={site.supportEmail} />.
        </p>
      </LegalSection>
      <LegalSection title="4. Privacy">
        <p>
          Phone numbers and consent records are used only to deliver the invitation and honour
          opt-outs. They are never sold or shared for marketing. See our{' '}
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
