import { Checkbox } from '@/components/ui/checkbox.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { phonePlaceholder, smsConsentText } from '@/config/site.ts';
import { updateInvitee, type Invitee } from '@/lib/invitee.ts';

/** Email or phone (mutually exclusive) plus the SMS consent checkbox once a phone is entered. */
export function InviteeFields({
  idPrefix,
  value,
  onChange,
  disabled = false,
}: {
  idPrefix: string;
  value: Invitee;
  onChange: (next: Invitee) => void;
  disabled?: boolean;
}) {
  const change = (patch: Partial<Invitee>) => onChange(updateInvitee(value, patch));
  const hasEmail = value.email !== '';
  const hasPhone = value.phone !== '';
  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor={`${idPrefix}-email`}>Email address</Label>
        <Input
          id={`${idPrefix}-email`}
          type="email"
          inputMode="email"
          autoComplete="off"
          placeholder="friend@example.com"
          value={value.email}
          disabled={disabled || hasPhone}
          onChange={(event) => change({ email: event.target.value })}
        />
      </div>
      <p className="text-center text-xs font-semibold text-slate-600 uppercase" aria-hidden="true">
        or
      </p>
      <div className="grid gap-2">
        <Label htmlFor={`${idPrefix}-phone`}>Phone number</Label>
        <Input
          id={`${idPrefix}-phone`}
          type="tel"
          inputMode="tel"
          autoComplete="off"
          placeholder={phonePlaceholder}
          aria-describedby={`${idPrefix}-phone-hint`}
          value={value.phone}
          disabled={disabled || hasEmail}
          onChange={(event) => change({ phone: event.target.value })}
        />
        <p id={`${idPrefix}-phone-hint`} className="text-xs text-slate-600">
          International format with country code, for example {phonePlaceholder}.
        </p>
      </div>
      {hasPhone ? (
        <div className="flex items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 p-3">
          <Checkbox
            id={`${idPrefix}-sms-consent`}
            checked={value.smsConsent}
            disabled={disabled}
            onCheckedChange={(checked) => change({ smsConsent: checked === true })}
          />
          <Label
            htmlFor={`${idPrefix}-sms-consent`}
            className="leading-snug font-normal text-slate-800"
          >
            {smsConsentText}
          </Label>
        </div>
      ) : null}
    </div>
  );
}
