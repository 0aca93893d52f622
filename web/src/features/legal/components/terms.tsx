import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { site } from '@/config/site.ts';
import { Bullets, LegalPage, LegalSection, Mailbox } from './legal-page.tsx';

export function Terms() {
  const link = 'text-indigo-800 underline underline-offset-4';
  return (
    <LegalPage
      title="Terms & Conditions"
      intro={
        <p>
          These terms govern your use of {site.name}. By creating an account or using the app you
          agree to them. If you do not agree, please do not use {site.name}.
        </p>
      }
    >
      <LegalSection title="1. Who may use Wagers">
        <p>
          You must be at least {site.minimumAge} years old and able to enter a binding agreement.
          You are responsible for making sure that the bets you make are lawful where you live.
        </p>
      </LegalSection>
      <LegalSection title="2. What Wagers is, and is not">
        <p>
          {site.name} is a tool for proposing, accepting and recording friendly bets between
          friends. It is not a bookmaker or gambling operator. {site.name} does not hold, transfer
          or process money, takes no stake and charges no commission. Any money or custom stake is
          settled directly between the participants, and {site.name} does not guarantee that anyone
          pays. A payment button, where shown, only opens a third-party payment app.
        </p>
      </LegalSection>
      <LegalSection title="3. Your account">
        <p>
          Keep your sign-in method secure and your details accurate. You are responsible for what
          happens under your account. Tell us at <Mailbox address={site.supportEmail} /> if you
          suspect misuse.
        </p>
      </LegalSection>
      <LegalSection title="4. Bets and outcomes">
        <Bullets
          items={[
            'A bet starts only when the person you propose it to accepts it.',
            'Depending on the confirmation mode you choose, either both participants must report the same outcome or the first report decides.',
            'Disagreements are between the participants. Wagers records what each side reports but does not judge outcomes.',
            'A pending bet can be withdrawn by its creator; an accepted bet stays on record.',
          ]}
        />
      </LegalSection>
      <LegalSection title="5. Invitations and messages">
        <p>
          Invite only people who have agreed to hear from you. Before a text message invitation is
          sent you must confirm that the recipient consented to receive it. Each invitation sends
          one message; recipients can reply STOP to opt out. See our{' '}
          <Link className={link} to={paths.optInProof}>
            SMS consent page
          </Link>
          .
        </p>
      </LegalSection>
      <LegalSection title="6. Acceptable use">
        <Bullets
          items={[
            'No bets on illegal activities or on outcomes you can improperly influence.',
            'No harassment, threats, hate or pressure on anyone to bet or to pay.',
            'No bets with or about minors.',
            'No attempts to break, overload or gain unauthorised access to the service.',
          ]}
        />
      </LegalSection>
      <LegalSection title="7. Your content">
        <p>
          You keep ownership of what you write in Wagers. You allow us to store and display it to
          the people it is meant for, only to run the service.
        </p>
      </LegalSection>
      <LegalSection title="8. Suspension and closing your account">
        <p>
          You may stop using {site.name} at any time and ask us to delete your account. We may
          suspend or close accounts that break these terms.
        </p>
      </LegalSection>
      <LegalSection title="9. Disclaimer">
        <p>
          {site.name} is provided “as is”. We work to keep it available and accurate but do not
          promise that it will be uninterrupted or free of errors.
        </p>
      </LegalSection>
      <LegalSection title="10. Limitation of liability">
        <p>
          To the extent the law allows, {site.name} is not liable for indirect or consequential
          losses, for unpaid or disputed bets, or for the conduct of other users. Our total
          liability to you for any claim is limited to ${site.liabilityCapUsd} (one hundred US
          dollars).
        </p>
      </LegalSection>
      <LegalSection title="11. Changes to these terms">
        <p>
          When these terms change we update the date above. Continuing to use {site.name} after a
          change means you accept the new terms.
        </p>
      </LegalSection>
      <LegalSection title="12. Contact">
        <p>
          Questions about these terms: <Mailbox address={site.supportEmail} />. Privacy questions:{' '}
          <Mailbox address={site.privacyEmail} />. Read our{' '}
          <Link className={link} to={paths.privacy}>
            Privacy Policy
          </Link>
          .
        </p>
      </LegalSection>
    </LegalPage>
  );
}
