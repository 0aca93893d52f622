import type { ReactNode } from 'react';
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
  const notice = preparingNotice(failure);
  return (
    <div role="status" aria-label={label} className={className} data-testid={testId}>
      {children}
      {notice ? (
        <p data-testid="preparing-notice" className="col-span-full text-sm text-slate-600">
          {notice}
        </p>
      ) : null}
    </div>
  );
}
