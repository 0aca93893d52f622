import type { ReactNode } from 'react';
import { cn } from '@/lib/cn.ts';

const tones = {
  info: 'border-indigo-200 bg-indigo-50',
  warning: 'border-amber-200 bg-amber-50',
  success: 'border-emerald-200 bg-emerald-50',
  neutral: 'border-slate-200 bg-white',
} as const;

export function Banner({
  tone,
  title,
  children,
  actions,
  testId,
}: {
  tone: keyof typeof tones;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <section
      aria-label={title}
      data-testid={testId}
      className={cn(
        'flex flex-col gap-3 rounded-xl border p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5',
        tones[tone],
      )}
    >
      <div className="grid gap-1">
        <h2 className="font-semibold text-slate-900">{title}</h2>
        {children ? <div className="text-sm text-slate-700">{children}</div> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </section>
  );
}
