import { MutationCache, QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { api, fieldErrorText, isUnauthorizedError, serverMessage } from './api-client.ts';
import type { ErrorToast } from './react-query.ts';
import { handleUnauthorized } from './unauthorized.ts';
import { retryWhilePrepared } from './retry.ts';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { errorToast?: ErrorToast };
  }
}

/** GETs the URL made by joining the query key parts with "/"; a 401 throws like any other failure. */
export const defaultQueryFn: QueryFunction = ({ queryKey, signal }) =>
  api.get<unknown>(queryKey.map(String).join('/'), { signal });

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (isUnauthorizedError(error)) handleUnauthorized();
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (isUnauthorizedError(error)) return handleUnauthorized();
        const errorToast = mutation.meta?.errorToast;
        if (!errorToast) return;
        const description =
          (errorToast.preferFieldErrors && fieldErrorText(error)) ||
          (errorToast.preferServerMessage && serverMessage(error)) ||
          errorToast.description;
        toast({ title: errorToast.title, description, variant: 'destructive' });
      },
    }),
    defaultOptions: {
      // The client only sees change through its own commands, which invalidate what they touch.
      queries: {
        queryFn: defaultQueryFn,
        staleTime: Infinity,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        ...retryWhilePrepared,
      },
      mutations: { retry: false },
    },
  });
}
