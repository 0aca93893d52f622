import { Badge } from '@/components/ui/badge.tsx';
import { statusBadge } from '../utils/bet-status.ts';

export function BetStatusBadge({ status }: { status: string }) {
  const { label, variant } = statusBadge(status);
  return (
    <Badge variant={variant} data-testid="bet-status" data-status={status}>
      {label}
    </Badge>
  );
}
