import { useState, type FormEvent } from 'react';
import { deleteAccountRequestSchema } from '@wagers/contracts/api/profile';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { useDeleteAccount } from '../api/delete-account.ts';

/**
 * Deleting the account, at the foot of the profile page: a dialog asks for the account's email
 * address typed again. Once deleted the person is signed out and lands on the home page.
 */
export function DeleteAccountCard() {
  const [confirmEmail, setConfirmEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useDeleteAccount({
    mutationConfig: {
      // A full page load: nothing of the account stays in the app's memory.
      onSuccess: () => window.location.assign('/'),
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The same schema the server applies; whether it is this account's address, the server says.
    const checked = deleteAccountRequestSchema.safeParse({ confirmEmail });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Type your email address to confirm');
      return;
    }
    setError(null);
    remove.mutate(checked.data);
  };

  return (
    <Card data-testid="delete-account-card">
      <CardContent className="grid gap-3 pt-5 sm:pt-6">
        <h2 className="text-lg font-semibold text-slate-900">Delete account</h2>
        <p className="text-sm text-slate-600">
          Your name, email address and picture are erased for good. Bets you proposed that are still
          waiting are withdrawn and bets waiting for you are declined; the other side is told. Past
          bets keep their history, showing &ldquo;Deleted user&rdquo; where you were.
        </p>
        <AlertDialog onOpenChange={() => setError(null)}>
          <AlertDialogTrigger asChild>
            <Button variant="destructive" className="justify-self-start">
              Delete Account
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <form className="grid gap-4" onSubmit={submit} noValidate aria-label="Delete account">
              <AlertDialogTitle>Delete your account?</AlertDialogTitle>
              <AlertDialogDescription>
                This cannot be undone. Type your email address to confirm.
              </AlertDialogDescription>
              <div className="grid gap-2">
                <Label htmlFor="confirm-email">Email address</Label>
                <Input
                  id="confirm-email"
                  type="email"
                  autoComplete="off"
                  value={confirmEmail}
                  aria-invalid={error !== null}
                  aria-describedby={error ? 'confirm-email-error' : undefined}
                  onChange={(event) => {
                    setConfirmEmail(event.target.value);
                    setError(null);
                  }}
                />
                {error ? (
                  <p
                    id="confirm-email-error"
                    role="alert"
                    className="text-sm font-medium text-red-700"
                  >
                    {error}
                  </p>
                ) : null}
              </div>
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <Button type="submit" variant="destructive" disabled={remove.isPending}>
                  {remove.isPending ? 'Deleting...' : 'Delete My Account'}
                </Button>
              </AlertDialogFooter>
            </form>
          </AlertDialogContent>
        </AlertDialog>
      </CardContent>
    </Card>
  );
}
