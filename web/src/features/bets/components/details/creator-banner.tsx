import { useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Bet } from '@wagers/contracts/api/bets';
import { displayName } from '@wagers/contracts/api/display';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { requestKeys } from '@/lib/request-key.ts';
import { paths } from '@/config/paths.ts';
import { useDeleteBet } from '../../api/delete-bet.ts';
import { useResendInvite } from '../../api/resend-invite.ts';
import { Banner } from './banner.tsx';

/** The creator of a pending bet waits, may nudge a newcomer again, or withdraws the bet. */
export function CreatorBanner({ bet }: { bet: Bet }) {
  const navigate = useNavigate();
  // A click after a lost answer is a retry of the same resend; once answered, the next is new.
  const keyFor = useRef(requestKeys()).current;
  const resend = useResendInvite({
    mutationConfig: {
      onSuccess: () => {
        keyFor.answered();
        toast({ title: 'Invitation resent' });
      },
    },
  });
  const remove = useDeleteBet({
    mutationConfig: {
      onSuccess: async () => {
        toast({ title: 'Bet deleted' });
        await navigate(paths.home);
      },
    },
  });
  const waitingOn = bet.opponent ? displayName(bet.opponent) : (bet.invitee ?? 'your friend');
  return (
    <Banner
      tone="warning"
      testId="creator-banner"
      title="Waiting for response"
      actions={
        <>
          {bet.opponentId === null ? (
            <Button
              variant="outline"
              disabled={resend.isPending}
              onClick={() => resend.mutate({ id: bet.id, idempotencyKey: keyFor(bet.id) })}
            >
              <Icon name="mail" />
              Resend Invite
            </Button>
          ) : null}
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button variant="destructive" disabled={remove.isPending}>
                Delete Bet
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogTitle>Delete this bet?</AlertDialogTitle>
              <AlertDialogDescription>
                &ldquo;{bet.title}&rdquo; will be withdrawn and {waitingOn} can no longer accept it.
                This cannot be undone.
              </AlertDialogDescription>
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <AlertDialogAction onClick={() => remove.mutate(bet.id)}>
                  Delete Bet
                </AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        </>
      }
    >
      Waiting for {waitingOn} to accept or decline.
    </Banner>
  );
}
