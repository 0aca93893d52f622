import { Link } from 'react-router-dom';
import { site } from '@/config/site.ts';
import { paths } from '@/config/paths.ts';

export function Logo() {
  return (
    <Link
      to={paths.home}
      className="flex items-center gap-2 rounded-md text-lg font-bold text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      data-testid="logo"
    >
      <span
        aria-hidden="true"
        className="flex size-8 items-center justify-center rounded-lg bg-indigo-700 text-base text-white"
      >
        W
      </span>
      <span>{site.name}</span>
    </Link>
  );
}
