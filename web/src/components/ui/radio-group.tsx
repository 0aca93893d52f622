import * as RadioGroupPrimitive from '@radix-ui/react-radio-group';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn.ts';

export function RadioGroup({
  className,
  ...props
}: ComponentProps<typeof RadioGroupPrimitive.Root>) {
  return <RadioGroupPrimitive.Root className={cn('grid gap-2', className)} {...props} />;
}

export function RadioGroupItem({
  className,
  ...props
}: ComponentProps<typeof RadioGroupPrimitive.Item>) {
  return (
    <RadioGroupPrimitive.Item
      className={cn(
        'mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full border border-slate-500 bg-white',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        'disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:border-indigo-700',
        className,
      )}
      {...props}
    >
      <RadioGroupPrimitive.Indicator className="size-2.5 rounded-full bg-indigo-700" />
    </RadioGroupPrimitive.Item>
  );
}

/** A whole-row choice: the radio, a title and an optional hint, all one click target. */
export function RadioCard({
  id,
  value,
  title,
  hint,
  disabled,
}: {
  id: string;
  value: string;
  title: string;
  hint?: string;
  disabled?: boolean;
}) {
  return (
    <label
      htmlFor={id}
      className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 bg-white p-3 has-[[data-state=checked]]:border-indigo-700 has-[[data-state=checked]]:bg-indigo-50"
    >
      <RadioGroupItem
        id={id}
        value={value}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <span className="grid gap-0.5">
        <span className="text-sm font-medium text-slate-900">{title}</span>
        {hint ? (
          <span id={`${id}-hint`} className="text-sm text-slate-600">
            {hint}
          </span>
        ) : null}
      </span>
    </label>
  );
}
