import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { site } from '@/config/site.ts';
import { Bullets, LegalPage, LegalSection, Mailbox } from './legal-page.tsx';

export function PrivacyPolicy() {
  return (
    <LegalPage
      title="Privacy Policy"
      intro={
        <p>
          {site.name} is a social app in which adults record friendly bets with friends they trust.
          This policy explains what we collect, why, and the choices you have. Questions go to{' '}
          <Mailbox address={site.privacyEmail} />.
        </p>
      }
    >
      <LegalSection title="1. What we collect">
        <Bullets
          items={[
            'Account details from the sign-in you choose (email link, or a provider such as Google, GitHub, X or Apple): your name, email address and profile picture.',
            'Your profile changes: the first and last name and picture you set.',
            'Your friends, the friend requests you send and receive, and the people you search for.',
            'Bets you create or join: titles, descriptions, wagers, end dates, each side’s reported outcome, and a history of every change.',
            'Invitations you send: the email address or phone number you enter for the person you invite, and your confirmation that they agreed to be contacted.',
            'Technical data needed to run the service: a session cookie that keeps you signed in, and server logs (time, address, request) kept for security and troubleshooting.',
          ]}
        />
      </LegalSection>
      <LegalSection title="2. How we use it">
        <Bullets
          items={[
            'To run the service: show your bets, friends and results, and let both sides of a bet agree on its outcome.',
            'To deliver the invitations you ask us to send, one message per invitation.',
            'To keep the service secure, prevent abuse and answer support requests.',
          ]}
        />
        <p>
          We do not sell personal information, we do not use it for advertising, and we send no
          marketing messages.
        </p>
      </LegalSection>
      <LegalSection title="3. Text messages (SMS)">
        <p>
          A phone number reaches us when a user invites someone and confirms that person agreed to
          receive a text message (we send one message per invitation), or when a member adds their
          own number on their profile and agrees to texts (we send only the notifications they
          choose, and removing the number withdraws that consent). Anyone can reply STOP at any time
          and we send that number nothing further. Phone numbers and consent records are never
          shared with third parties for their marketing. Details are on our{' '}
          <Link className="text-indigo-800 underline underline-offset-4" to={paths.optInProof}>
            SMS consent page
          </Link>
          .
        </p>
      </LegalSection>
      <LegalSection title="4. Who sees your information">
        <Bullets
          items={[
            'Your friends see your name, email address and picture. People searching for you see your name, and your email address only if they type it exactly.',
            'A bet and its history are visible only to its two participants.',
            'Service providers that host the service and deliver email and text messages process data for us under contract and only to provide those services.',
            'Authorities, when the law requires it.',
          ]}
        />
        <p>
          {site.name} does not hold or move money. If you choose to open a third-party payment app
          to settle a bet, that app’s own privacy policy applies.
        </p>
      </LegalSection>
      <LegalSection title="5. How long we keep it">
        <p>
          We keep your data while your account exists. Bet records keep their history so both
          participants can rely on them. When you ask us to delete your account, we delete or
          anonymise your personal information unless the law requires us to keep it.
        </p>
      </LegalSection>
      <LegalSection title="6. Your choices and rights">
        <p>
          You can change your name and picture on your profile at any time. To get a copy of your
          data, correct it or delete your account, write to <Mailbox address={site.privacyEmail} />.
          We answer within 30 days.
        </p>
      </LegalSection>
      <LegalSection title="7. Adults only">
        <p>
          {site.name} is for people aged {site.minimumAge} or older. We do not knowingly collect
          information from anyone younger; if you believe we have, tell us and we will delete it.
        </p>
      </LegalSection>
      <LegalSection title="8. Security">
        <p>
          Connections are encrypted, sign-in sessions are protected, and access to personal
          information is limited to what running the service requires. No system is perfectly
          secure; if something goes wrong we will tell the people affected.
        </p>
      </LegalSection>
      <LegalSection title="9. Changes">
        <p>
          When this policy changes we update the date above, and for significant changes we tell
          signed-in users in the app.
        </p>
      </LegalSection>
      <LegalSection title="10. Contact">
        <p>
          Privacy questions: <Mailbox address={site.privacyEmail} />. Everything else:{' '}
          <Mailbox address={site.supportEmail} />.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
