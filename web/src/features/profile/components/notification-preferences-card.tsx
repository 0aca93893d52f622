import {
  notificationKindLabels,
  notificationPreferenceRequestSchema,
  type NotificationPreferenceRequest,
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
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
import { usePhone } from '../api/get-phone.ts';
import { useNotificationPreferences } from '../api/get-notification-preferences.ts';
import { useSetNotificationPreference } from '../api/set-notification-preference.ts';

/** One kind's switch on one channel. */
function ChannelSwitch({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <Checkbox
      aria-label={label}
      className="mx-auto"
      checked={checked}
      disabled={disabled}
      onCheckedChange={(state) => onChange(state === true)}
    />
  );
}

/**
 * The profile's notification switches: per kind, one for email and one for text messages, each
 * saved as it changes. Texts stay off (and their switches disabled) until the person has a
 * number and agreed to texts above.
 */
export function NotificationPreferencesCard() {
  const {
    data: preferences,
    isPending,
    isError,
    error,
    failureReason,
  } = useNotificationPreferences();
  const { data: phone } = usePhone();
  const canText = phone?.smsConsent === true;
  const saveChoice = useSetNotificationPreference({
    mutationConfig: {
      onSuccess: (_answer, body) =>
        void toast({
          title: body.sms === undefined ? 'Email preferences saved' : 'Text preferences saved',
        }),
    },
  });
  const save = {
    isPending: saveChoice.isPending,
    mutate: (body: NotificationPreferenceRequest) =>
      saveChoice.mutate(notificationPreferenceRequestSchema.parse(body)),
  };
  return (
    <Card data-testid="notification-preferences">
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>
          Choose what Wagers emails you about, and what it texts you about.
          {canText ? null : ' To get texts, add your number and agree to texts above.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <LoadingStatus
            label="Loading notifications"
            failure={failureReason}
            className="grid gap-2"
          >
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-6 w-2/3" />
            ))}
          </LoadingStatus>
        ) : isError ? (
          <ErrorMessage what="your notifications" error={error} />
        ) : (
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-xs text-slate-600">
                <th scope="col" className="pb-2 font-medium">
                  When
                </th>
                <th scope="col" className="w-14 pb-2 text-center font-medium">
                  Email
                </th>
                <th scope="col" className="w-14 pb-2 text-center font-medium">
                  SMS
                </th>
              </tr>
            </thead>
            <tbody>
              {preferences.map(({ kind, email, sms }) => (
                <tr key={kind} className="border-t border-slate-100">
                  <th scope="row" className="py-2 pr-2 text-left font-normal text-slate-800">
                    {notificationKindLabels[kind]}
                  </th>
                  <td className="py-2 text-center">
                    <ChannelSwitch
                      label={`Email: ${notificationKindLabels[kind]}`}
                      checked={email}
                      disabled={save.isPending}
                      onChange={(on) => save.mutate({ kind, email: on })}
                    />
                  </td>
                  <td className="py-2 text-center">
                    <ChannelSwitch
                      label={`SMS: ${notificationKindLabels[kind]}`}
                      checked={canText && sms}
                      disabled={save.isPending || !canText}
                      onChange={(on) => save.mutate({ kind, sms: on })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}
