import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { useState } from 'react';
import type { UserSearchResult } from '@wagers/contracts/api/friends';
import { displayName } from '@wagers/contracts/api/display';
import { EmptyState } from '@/components/feedback/empty-state.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { useDebouncedValue } from '@/hooks/use-debounced-value.ts';
import { useSearchUsers } from '../api/search-users.ts';
import { useSendFriendRequest } from '../api/send-friend-request.ts';
import { PersonListSkeleton, PersonRow } from './person-row.tsx';

const SEARCH_DEBOUNCE_MS = 300;

export function FindFriends() {
  const [text, setText] = useState('');
  const query = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor="friend-search">Find people on Wagers</Label>
        <p id="friend-search-hint" className="text-sm text-slate-600">
          Search by email address (most reliable) or by first or last name. Email addresses stay
          private unless you type one exactly.
        </p>
        <div className="relative">
          <Icon
            name="search"
            className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-500"
          />
          <Input
            id="friend-search"
            type="search"
            className="pl-9"
            placeholder="Search by email or name"
            aria-describedby="friend-search-hint"
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
      </div>
      {query ? <SearchResults query={query} /> : null}
    </div>
  );
}

function SearchResults({ query }: { query: string }) {
  const { data: results, isPending, isError, error, failureReason } = useSearchUsers(query);
  if (isPending) return <PersonListSkeleton count={2} failure={failureReason} />;
  if (isError) return <ErrorMessage what="search results" error={error} />;
  if (results.length === 0) {
    return (
      <EmptyState
        testId="search-empty"
        icon={<Icon name="search" className="size-6" />}
        title="No users found"
        description="Try searching with a different email or name"
      />
    );
  }
  return (
    <ul className="grid gap-2" aria-label="Search results">
      {results.map((result) => (
        <PersonRow
          key={result.id}
          person={result}
          testId="search-result"
          actions={<Relationship result={result} />}
        />
      ))}
    </ul>
  );
}

function Relationship({ result }: { result: UserSearchResult }) {
  const send = useSendFriendRequest({
    mutationConfig: {
      onSuccess: ({ status }) => {
        // They had already asked: asking back made the two friends.
        if (status === 'friends') {
          toast({
            title: 'Friend request accepted',
            description: `You are now friends with ${result.firstName ?? displayName(result)}`,
          });
        } else toast({ title: 'Friend request sent' });
      },
    },
  });
  switch (result.relationship) {
    case 'friend':
      return <Badge variant="success">Friends</Badge>;
    case 'request_sent':
      return <Badge variant="warning">Request Sent</Badge>;
    // Adding someone who has asked you accepts their request (spec §2: a badge or the button).
    case 'request_received':
    case 'none':
      return (
        <Button
          size="sm"
          disabled={send.isPending}
          onClick={() => send.mutate({ receiverId: result.id })}
          aria-label={`Add Friend ${displayName(result)}`}
        >
          <Icon name="userPlus" />
          Add Friend
        </Button>
      );
    default: {
      const unknown: never = result.relationship;
      return unknown;
    }
  }
}
