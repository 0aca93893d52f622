import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { site } from '@/config/site.ts';

const linkClasses =
  'rounded text-slate-700 underline-offset-4 hover:text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600';

export function Footer() {
  return (
    <footer className="mt-auto border-t border-slate-200 bg-white">
      <div className="mx-auto grid max-w-5xl gap-4 px-4 py-8 text-sm text-slate-700 sm:grid-cols-2">
        <div className="grid gap-1">
          <p className="font-semibold text-slate-900">{site.name}</p>
          <p>
            Friendly bets between adults ({site.minimumAge}+). {site.name} never holds or moves
            money.
          </p>
          <p>
            Support:{' '}
            <a className={linkClasses} href={`mailto:${site.supportEmail}`}>
              {site.supportEmail}
            </a>
          </p>
          <p>
            Privacy:{' '}
            <a className={linkClasses} href={`mailto:${site.privacyEmail}`}>
              {site.privacyEmail}
            </a>
          </p>
        </div>
        <nav
          aria-label="Legal"
          className="flex flex-wrap content-start gap-x-4 gap-y-2 sm:justify-end"
        >
          <Link className={linkClasses} to={paths.privacy}>
            Privacy Policy
          </Link>
          <Link className={linkClasses} to={paths.terms}>
            Terms &amp; Conditions
          </Link>
          <Link className={linkClasses} to={paths.optInProof}>
            SMS Consent
          </Link>
        </nav>
      </div>
      <p className="pb-6 text-center text-xs text-slate-600">
        © {new Date().getFullYear()} {site.name}
      </p>
    </footer>
  );
}
