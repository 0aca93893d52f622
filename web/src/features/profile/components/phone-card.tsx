import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { setPhoneRequestSchema, type PhoneSettings } from '@wagers/contracts/api/profile';
import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { Checkbox } from '@/components/ui/checkbox.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
import { paths } from '@/config/paths.ts';
import { notificationSmsConsentText, phonePlaceholder } from '@/config/site.ts';
import { formatDateTime } from '@/lib/format.ts';
import { usePhone } from '../api/get-phone.ts';
import { useSetPhone } from '../api/set-phone.ts';

/** The number and consent form, starting from what is saved. */
function PhoneForm({ saved }: { saved: PhoneSettings }) {
  const [phone, setPhone] = useState(saved.phone ?? '');
  const [smsConsent, setSmsConsent] = useState(saved.smsConsent);
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const save = useSetPhone({
    mutationConfig: {
      onSuccess: (settings) => {
        setPhone(settings.phone ?? '');
        setSmsConsent(settings.smsConsent);
        toast({ title: settings.phone ? 'Phone number saved' : 'Phone number removed' });
      },
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = setPhoneRequestSchema.safeParse({
      phone: phone.trim() === '' ? null : phone,
      smsConsent,
    });
    if (!checked.success) {
      const [first] = checked.error.issues;
      setError({ field: String(first?.path[0] ?? 'phone'), message: first?.message ?? 'Invalid' });
      return;
    }
    setError(null);
    save.mutate(checked.data);
  };
  const remove = () => {
    setError(null);
    save.mutate({ phone: null, smsConsent: false });
  };

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate aria-label="Your phone number">
      <div className="grid gap-2">
        <Label htmlFor="phone">Mobile number</Label>
        <Input
          id="phone"
          type="tel"
          autoComplete="tel"
          placeholder={phonePlaceholder}
          value={phone}
          aria-invalid={error?.field === 'phone'}
          aria-describedby={error ? 'phone-error' : undefined}
          onChange={(event) => setPhone(event.target.value)}
        />
      </div>
      <div className="flex items-start gap-3">
        <Checkbox
          id="sms-consent"
          checked={smsConsent}
          aria-invalid={error?.field === 'smsConsent'}
          onCheckedChange={(checked) => setSmsConsent(checked === true)}
        />
        <Label htmlFor="sms-consent" className="leading-snug font-normal text-slate-800">
          {notificationSmsConsentText}
        </Label>
      </div>
      {saved.smsConsent && saved.consentedAt ? (
        <p className="text-xs text-slate-600" data-testid="sms-consent-given">
          You agreed to text messages on{' '}
          <time dateTime={saved.consentedAt}>{formatDateTime(saved.consentedAt)}</time>.
        </p>
      ) : null}
      {error ? (
        <p id="phone-error" role="alert" className="text-sm font-medium text-red-700">
          {error.message}
        </p>
      ) : null}
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save phone'}
        </Button>
        {saved.phone ? (
          <Button type="button" variant="outline" disabled={save.isPending} onClick={remove}>
            Remove number
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** The profile's phone number, with the explicit consent texts need (off until ticked). */
export function PhoneCard() {
  const { data: saved, isPending, isError, error, failureReason } = usePhone();
  return (
    <Card data-testid="phone-card">
      <CardHeader>
        <CardTitle>Text messages</CardTitle>
        <CardDescription>
          Add a mobile number to get notifications by text. Only you see it. How we use it:{' '}
          <Link className="text-indigo-700 underline" to={paths.optInProof}>
            SMS consent
          </Link>
          .
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <LoadingStatus
            label="Loading your phone number"
            failure={failureReason}
            className="grid gap-2"
          >
            <Skeleton className="h-9 w-2/3" />
          </LoadingStatus>
        ) : isError ? (
          <ErrorMessage what="your phone number" error={error} />
        ) : (
          <PhoneForm key={`${saved.phone}-${saved.smsConsent}`} saved={saved} />
        )}
      </CardContent>
    </Card>
  );
}
