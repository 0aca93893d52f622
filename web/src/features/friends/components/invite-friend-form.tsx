import { useRef, useState, type FormEvent } from 'react';
import { InviteeFields } from '@/components/invitee-fields.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { requestKeys } from '@/lib/request-key.ts';
import { emptyInvitee, hasInvitee, needsSmsConsent, type Invitee } from '@/lib/invitee.ts';
import { useCreateInvite } from '../api/create-invite.ts';

export function InviteFriendForm() {
  const [invitee, setInvitee] = useState<Invitee>(emptyInvitee);
  const keyFor = useRef(requestKeys()).current;
  const invite = useCreateInvite({
    mutationConfig: {
      onSuccess: (_response, { body: sent }) => {
        // Sent: inviting the same person again is a new invitation, not a retry of this one.
        keyFor.answered();
        toast({
          title: 'Invitation sent!',
          description: sent.inviteeEmail
            ? `An email was sent to ${sent.inviteeEmail}`
            : `An SMS was sent to ${sent.inviteePhone ?? ''}`,
        });
        setInvitee(emptyInvitee);
      },
    },
  });
  const canSend = !invite.isPending && hasInvitee(invitee) && !needsSmsConsent(invitee);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSend) return;
    const email = invitee.email.trim();
    const body = email
      ? { inviteeEmail: email }
      : { inviteePhone: invitee.phone.trim(), smsConsent: invitee.smsConsent };
    invite.mutate({ body, idempotencyKey: keyFor(body) });
  };

  return (
    <div className="grid gap-4 md:grid-cols-[3fr_2fr]">
      <Card>
        <CardHeader>
          <CardTitle>Invite a friend to Wagers</CardTitle>
          <CardDescription>Send an invitation by email or text message.</CardDescription>
        </CardHeader>
        <CardContent>
          <form className="grid gap-4" onSubmit={submit} aria-label="Invite a friend" noValidate>
            <InviteeFields
              idPrefix="invite"
              value={invitee}
              onChange={setInvitee}
              disabled={invite.isPending}
            />
            <Button type="submit" disabled={!canSend}>
              <Icon name="mail" />
              {invite.isPending ? 'Sending...' : 'Send Invitation'}
            </Button>
          </form>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>What happens next</CardTitle>
        </CardHeader>
        <CardContent>
          <ol className="grid list-decimal gap-2 pl-5 text-sm text-slate-700">
            <li>Your friend gets an invitation with a link to join Wagers.</li>
            <li>When they sign up, you become friends automatically.</li>
            <li>You can start betting with each other right away.</li>
          </ol>
        </CardContent>
      </Card>
    </div>
  );
}
