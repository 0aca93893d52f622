import type { ReactNode } from 'react';
import { cn } from '@/lib/cn.ts';
import { preparingNotice } from '@/lib/retry.ts';

/**
 * A panel's loading state: its skeletons in a status region named by `label`. While the read
 * waits to be asked again because the server is still preparing it (`failure` is the query's
 * `failureReason`: a 503 with `Retry-After`), the region also says so, in the server's words or
 * the product's, and screen readers announce it; the line goes with the skeletons once the data
 * comes, and after two minutes the panel shows its failure as ever.
 */
export function LoadingStatus({
  label,
  failure,
  className,
  testId,
  children,
}: {
  label: string;
  failure: Error | null | undefined;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div role="status" aria-label={label} className={className} data-testid={testId}>
      {children}
      {/* Inside this region already: no status of its own, or screen readers say it twice. */}
      <PreparingNotice failure={failure} className="col-span-full" ownStatus={false} />
    </div>
  );
}

/**
 * The same line for a panel whose skeletons stand inline in its content (figures), with no
 * loading region of its own: a status of its own while the read waits, nothing otherwise.
 */
export function PreparingNotice({
  failure,
  className,
  ownStatus = true,
}: {
  failure: Error | null | undefined;
  className?: string;
  /** False inside a status region that announces it already. */
  ownStatus?: boolean;
}) {
  const notice = preparingNotice(failure);
  if (!notice) return null;
  return (
    <p
      role={ownStatus ? 'status' : undefined}
      data-testid="preparing-notice"
      className={cn('text-sm text-slate-600', className)}
    >
      {notice}
    </p>
  );
}
