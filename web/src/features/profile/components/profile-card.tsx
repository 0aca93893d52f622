import { useState, type FormEvent } from 'react';
import type { User } from '@wagers/contracts/api/user';
import { displayName } from '@wagers/contracts/api/display';
import { NAME_MAX_LENGTH } from '@wagers/contracts/api/profile-rules';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { LogoutButton, LogoutForm } from '@/features/auth/logout.tsx';
import { formatMonthYear } from '@/lib/format.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import { AvatarPicker } from './avatar-picker.tsx';

/**
 * `onProfileChange` lets the page refresh what other features show of this user (friends,
 * requests, bets, activity): after a new name and after a new picture alike.
 */
export function ProfileCard({
  user,
  onProfileChange,
}: {
  user: User;
  onProfileChange?: () => unknown;
}) {
  const [firstName, setFirstName] = useState(user.firstName ?? '');
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateProfile({
    mutationConfig: {
      onSuccess: async () => {
        toast({ title: 'Profile updated' });
        await onProfileChange?.();
      },
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!firstName.trim() || !lastName.trim()) {
      setError('Please enter both first and last name');
      return;
    }
    setError(null);
    update.mutate({ firstName: firstName.trim(), lastName: lastName.trim() });
  };

  return (
    <Card data-testid="profile-card">
      <CardContent className="grid gap-6 pt-5 sm:grid-cols-[auto_1fr] sm:pt-6">
        <div className="grid justify-items-center gap-2 text-center">
          <AvatarPicker user={user} onChange={onProfileChange} />
          <p className="font-semibold text-slate-900" data-testid="profile-name">
            {displayName(user)}
          </p>
          <p className="text-sm text-slate-600">Member since {formatMonthYear(user.createdAt)}</p>
        </div>
        <form
          className="grid content-start gap-4"
          onSubmit={submit}
          noValidate
          aria-label="Your name"
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor="first-name">First name</Label>
              <Input
                id="first-name"
                autoComplete="given-name"
                maxLength={NAME_MAX_LENGTH}
                value={firstName}
                aria-invalid={error !== null && !firstName.trim()}
                aria-describedby={error ? 'name-error' : undefined}
                onChange={(event) => setFirstName(event.target.value)}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="last-name">Last name</Label>
              <Input
                id="last-name"
                autoComplete="family-name"
                maxLength={NAME_MAX_LENGTH}
                value={lastName}
                aria-invalid={error !== null && !lastName.trim()}
                aria-describedby={error ? 'name-error' : undefined}
                onChange={(event) => setLastName(event.target.value)}
              />
            </div>
          </div>
          {error ? (
            <p id="name-error" role="alert" className="text-sm font-medium text-red-700">
              {error}
            </p>
          ) : null}
          <div className="grid gap-2">
            <Label htmlFor="email">Email</Label>
            <Input id="email" value={user.email ?? ''} readOnly disabled />
          </div>
          <div className="flex flex-col gap-3 sm:flex-row sm:justify-between">
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
            <LogoutButton>
              <Icon name="logOut" />
              Log Out
            </LogoutButton>
          </div>
        </form>
        <LogoutForm />
      </CardContent>
    </Card>
  );
}
