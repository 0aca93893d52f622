import { useParams } from 'react-router-dom';
import { BetDetails } from '@/features/bets/components/details/bet-details.tsx';
import { useUser } from '@/lib/auth.ts';

export function BetRoute() {
  const { id = '' } = useParams();
  const { user } = useUser();
  if (!user) return null;
  return <BetDetails key={id} betId={id} userId={user.id} />;
}
