import { ButtonAnchor } from '@/components/ui/button.tsx';
import { Icon, type IconName } from '@/components/ui/icons.tsx';
import { paths } from '@/config/paths.ts';
import { site } from '@/config/site.ts';

const steps = [
  {
    title: 'Add a friend',
    text: 'Connect with friends already on Wagers, or invite someone new by email or text message.',
  },
  {
    title: 'Propose the bet',
    text: 'Set the terms and the stake: a dollar amount or something fun, like dinner. Your friend accepts or declines.',
  },
  {
    title: 'Settle it together',
    text: 'When it is over, you both confirm who won. You settle up between yourselves.',
  },
] as const;

const promises: { icon: IconName; title: string; text: string }[] = [
  { icon: 'users', title: 'Connect with Friends', text: 'Only bet with people you trust.' },
  { icon: 'handshake', title: 'Create a Bet', text: 'Both of you must agree before a bet is on.' },
  { icon: 'checkCircle', title: 'Resolve Together', text: 'Both parties confirm the outcome.' },
];

export function LandingPage() {
  return (
    <div className="grid gap-16 sm:gap-20" data-testid="landing">
      <section aria-labelledby="hero-title" className="grid gap-6 pt-4 text-center sm:pt-10">
        <p className="mx-auto rounded-full bg-indigo-50 px-3 py-1 text-sm font-medium text-indigo-800">
          Friendly bets, settled fairly
        </p>
        <h1
          id="hero-title"
          className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl"
        >
          Bet with friends you trust
        </h1>
        <p className="mx-auto max-w-2xl text-lg text-slate-700">
          Propose a friendly bet, let your friend accept, and decide the outcome together.{' '}
          {site.name} keeps score so you can keep the friendship.
        </p>
        <div className="flex flex-col justify-center gap-3 sm:flex-row">
          <ButtonAnchor href={paths.login()} size="lg">
            Get started
          </ButtonAnchor>
          <ButtonAnchor href={paths.login()} size="lg" variant="outline">
            Sign in
          </ButtonAnchor>
        </div>
        <p className="text-sm text-slate-600">
          For adults {site.minimumAge}+. {site.name} never holds or moves money.
        </p>
      </section>

      <section aria-labelledby="how-title" className="grid gap-6">
        <h2 id="how-title" className="text-center text-2xl font-bold text-slate-900">
          How it works
        </h2>
        <ol className="grid gap-4 sm:grid-cols-3">
          {steps.map((step, index) => (
            <li
              key={step.title}
              className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
            >
              <span
                aria-hidden="true"
                className="mb-3 flex size-9 items-center justify-center rounded-full bg-indigo-700 font-bold text-white"
              >
                {index + 1}
              </span>
              <h3 className="font-semibold text-slate-900">
                <span className="sr-only">Step {index + 1}: </span>
                {step.title}
              </h3>
              <p className="mt-1 text-sm text-slate-700">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="promise-title" className="grid gap-6">
        <h2 id="promise-title" className="text-center text-2xl font-bold text-slate-900">
          Fair by design
        </h2>
        <ul className="grid gap-4 sm:grid-cols-3">
          {promises.map((promise) => (
            <li key={promise.title} className="flex flex-col items-center gap-2 p-4 text-center">
              <span className="flex size-12 items-center justify-center rounded-full bg-indigo-50 text-indigo-700">
                <Icon name={promise.icon} className="size-6" />
              </span>
              <h3 className="font-semibold text-slate-900">{promise.title}</h3>
              <p className="text-sm text-slate-700">{promise.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section
        aria-labelledby="cta-title"
        className="grid gap-4 rounded-2xl bg-indigo-800 px-6 py-10 text-center text-white sm:px-12"
      >
        <h2 id="cta-title" className="text-2xl font-bold">
          Ready for your first friendly bet?
        </h2>
        <p className="text-indigo-100">Sign up in seconds and invite a friend.</p>
        <div>
          <ButtonAnchor href={paths.login()} size="lg" variant="outline" className="border-white">
            Get Started Free
          </ButtonAnchor>
        </div>
      </section>
    </div>
  );
}
