import { NavLink, useLocation } from 'react-router-dom';
import type { SignedInUser } from '@wagers/contracts/api/user';
import { ButtonAnchor, ButtonLink } from '@/components/ui/button.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { UserAvatar } from '@/components/user-avatar.tsx';
import { paths } from '@/config/paths.ts';
import { useUser } from '@/lib/auth.ts';
import { cn } from '@/lib/cn.ts';
import { Logo } from './logo.tsx';

export function Header() {
  const { user, isLoading } = useUser();
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <Logo />
        {isLoading ? null : user ? <SignedInNav user={user} /> : <SignedOutActions />}
      </div>
    </header>
  );
}

function SignedInNav({ user }: { user: SignedInUser }) {
  return (
    <>
      <nav aria-label="Main" className="order-3 flex w-full gap-1 sm:order-2 sm:w-auto">
        <HeaderLink to={paths.home} end>
          Dashboard
        </HeaderLink>
        <HeaderLink to={paths.friends}>Friends</HeaderLink>
        {user.isAuditor ? <HeaderLink to={paths.audit}>Audit</HeaderLink> : null}
      </nav>
      <div className="order-2 ml-auto flex items-center gap-3 sm:order-3">
        <ButtonLink to={paths.createBet} size="sm" data-testid="header-create-bet">
          <Icon name="plus" />
          Create Bet
        </ButtonLink>
        <NavLink
          to={paths.profile}
          data-testid="header-avatar"
          className="rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          {/* Named by hidden text, not aria-label: a label must contain the visible initials (WCAG 2.5.3). */}
          <span className="sr-only">Profile</span>
          <UserAvatar user={user} size="sm" />
        </NavLink>
      </div>
    </>
  );
}

function HeaderLink({ to, end, children }: { to: string; end?: boolean; children: string }) {
  return (
    <NavLink
      to={to}
      end={end}
      className={({ isActive }) =>
        cn(
          'rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600',
          isActive
            ? 'bg-indigo-50 text-indigo-800'
            : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
        )
      }
    >
      {children}
    </NavLink>
  );
}

function SignedOutActions() {
  const location = useLocation();
  return (
    <div className="ml-auto flex items-center gap-2">
      <ButtonAnchor
        href={paths.login(location.pathname + location.search)}
        variant="outline"
        size="sm"
      >
        Sign in
      </ButtonAnchor>
    </div>
  );
}
