import { useParams } from 'react-router-dom';
import { AuditBet } from '@/features/audit/components/audit-bet.tsx';
import { AuditSearch } from '@/features/audit/components/audit-search.tsx';
import { AuditTrail } from '@/features/audit/components/audit-trail.tsx';
import { useUser } from '@/lib/auth.ts';
import { NotFoundRoute } from './not-found.tsx';

/** The audit area exists for auditors only; the server answers everyone else 404 as well. */
export function AuditRoute() {
  const { user } = useUser();
  if (!user) return null;
  if (!user.isAuditor) return <NotFoundRoute />;
  return (
    <div className="grid gap-6" data-testid="audit">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Audit</h1>
        <p className="text-slate-700">Replay any bet's history. Every look is recorded.</p>
      </div>
      <AuditSearch />
      <AuditTrail />
    </div>
  );
}

export function AuditBetRoute() {
  const { id = '' } = useParams();
  const { user } = useUser();
  if (!user) return null;
  if (!user.isAuditor) return <NotFoundRoute />;
  return <AuditBet key={id} betId={id} />;
}
