import { Skeleton } from '@/components/ui/skeleton.tsx';

/** Placeholder while the signed-in user is still being looked up. */
export function PageLoading() {
  return (
    <div role="status" aria-label="Loading" className="grid gap-4" data-testid="page-loading">
      <Skeleton className="h-8 w-48" />
      <Skeleton className="h-32 w-full" />
      <Skeleton className="h-32 w-full" />
    </div>
  );
}
