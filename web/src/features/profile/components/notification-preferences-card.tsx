import {
  notificationKindLabels,
  notificationPreferenceRequestSchema,
} from '@wagers/contracts/api/notifications';
import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { Checkbox } from '@/components/ui/checkbox.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { useNotificationPreferences } from '../api/get-notification-preferences.ts';
import { useSetNotificationPreference } from '../api/set-notification-preference.ts';

/** The profile's email switches: one per kind of notification, each saved as it changes. */
export function NotificationPreferencesCard() {
  const { data: preferences, isPending, isError, error } = useNotificationPreferences();
  const save = useSetNotificationPreference({
    mutationConfig: { onSuccess: () => void toast({ title: 'Email preferences saved' }) },
  });
  return (
    <Card data-testid="notification-preferences">
      <CardHeader>
        <CardTitle>Email notifications</CardTitle>
        <CardDescription>Choose what Wagers emails you about.</CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div role="status" aria-label="Loading email notifications" className="grid gap-2">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-6 w-2/3" />
            ))}
          </div>
        ) : isError ? (
          <ErrorMessage what="your email notifications" error={error} />
        ) : (
          <ul className="grid gap-3">
            {preferences.map(({ kind, email }) => (
              <li key={kind} className="flex items-start gap-3">
                <Checkbox
                  id={`notify-${kind}`}
                  checked={email}
                  disabled={save.isPending}
                  onCheckedChange={(checked) =>
                    save.mutate(
                      notificationPreferenceRequestSchema.parse({ kind, email: checked === true }),
                    )
                  }
                />
                <Label
                  htmlFor={`notify-${kind}`}
                  className="leading-snug font-normal text-slate-800"
                >
                  {notificationKindLabels[kind]}
                </Label>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
