import type { StoredEvent } from './log.ts';
import { streams } from './protocol.ts';

type Options = InstanceType<typeof streams.ReadReq.Options>;
const FilterCase = streams.ReadReq.Options.FilterOptions.FilterCase;

/**
 * The server-side filter of a read or subscription of $all: a regular expression or a list of
 * prefixes, on the stream name or on the event type (clients send one of the two). JavaScript
 * runs the regex, not .NET: simple patterns such as excludeSystemEvents' "^[^$].*" mean the same
 * in both.
 */
export function eventFilter(options: Options): (event: StoredEvent) => boolean {
  const filter = options.getFilter();
  if (!options.hasFilter() || !filter) return () => true;
  const onStream = filter.getFilterCase() === FilterCase.STREAM_IDENTIFIER;
  const expression = onStream ? filter.getStreamIdentifier() : filter.getEventType();
  const field = (event: StoredEvent) => (onStream ? event.streamId : event.type);
  const prefixes = expression?.getPrefixList() ?? [];
  if (prefixes.length > 0)
    return (event) => prefixes.some((prefix) => field(event).startsWith(prefix));
  const pattern = new RegExp(expression?.getRegex() ?? '');
  return (event) => pattern.test(field(event));
}
