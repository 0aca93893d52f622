import {
  useMutation,
  useQueryClient,
  type QueryKey,
  type UseMutationOptions,
} from '@tanstack/react-query';

type ApiFn = (...args: never[]) => Promise<unknown>;

/** Options a caller may add to an endpoint's mutation hook (its own onSuccess runs after the hook's invalidation). */
export type MutationConfig<Fn extends ApiFn> = Omit<
  UseMutationOptions<Awaited<ReturnType<Fn>>, Error, Parameters<Fn>[0]>,
  'mutationFn'
>;

/** Invalidates several queries (by their factories' keys) and waits for the active ones to refetch. */
export function useInvalidate(): (...keys: QueryKey[]) => Promise<void> {
  const queryClient = useQueryClient();
  return async (...keys) => {
    await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  };
}

/** What a failed command tells the user; the query client's mutation cache shows it. */
export type ErrorToast = {
  title: string;
  description: string;
  /** Show the server's own sentence when it sent one, else `description`. */
  preferServerMessage?: boolean;
  /** When the server refused the request as invalid, naming fields, show what it said of them. */
  preferFieldErrors?: boolean;
};

/**
 * The shape every endpoint's mutation hook shares: call the fetcher, then invalidate the listed
 * query keys (through their factories) before the caller's onSuccess runs, so the screen it
 * returns to already shows the write. Failures surface through `errorToast`.
 */
export function useApiMutation<Fn extends ApiFn>(
  fetcher: Fn,
  {
    invalidates = [],
    errorToast,
    config = {},
  }: { invalidates?: QueryKey[]; errorToast?: ErrorToast; config?: MutationConfig<Fn> },
) {
  const invalidate = useInvalidate();
  const { onSuccess, meta, ...rest } = config;
  const call = fetcher as unknown as (
    variables: Parameters<Fn>[0],
  ) => Promise<Awaited<ReturnType<Fn>>>;
  return useMutation<Awaited<ReturnType<Fn>>, Error, Parameters<Fn>[0]>({
    ...rest,
    meta: { errorToast, ...meta },
    mutationFn: call,
    onSuccess: async (...args) => {
      await invalidate(...invalidates);
      await onSuccess?.(...args);
    },
  });
}
