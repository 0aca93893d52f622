import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn.ts';

export type BadgeVariant =
  'default' | 'secondary' | 'outline' | 'destructive' | 'success' | 'warning';

const variants: Record<BadgeVariant, string> = {
  default: 'border-transparent bg-indigo-700 text-white',
  secondary: 'border-transparent bg-slate-100 text-slate-800',
  outline: 'border-slate-300 text-slate-800',
  destructive: 'border-transparent bg-red-700 text-white',
  success: 'border-transparent bg-emerald-100 text-emerald-900',
  warning: 'border-transparent bg-amber-100 text-amber-900',
};

export function Badge({
  variant = 'default',
  className,
  ...props
}: ComponentProps<'span'> & { variant?: BadgeVariant }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
