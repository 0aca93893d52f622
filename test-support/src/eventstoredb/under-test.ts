import { startEventStoreDbStandIn, type EventStoreDbStandInOptions } from './server.ts';

export interface EventStoreDbUnderTest {
  url: string;
  stop(): Promise<void>;
}

const configuredUrl = process.env.EVENTSTORE_URL;

/** Which server the EventStoreDB tests talk to, for their titles. */
export const eventStoreDbUnderTestName = configuredUrl
  ? 'the server at EVENTSTORE_URL'
  : 'the in-memory stand-in';

/**
 * The real server EVENTSTORE_URL names (left running, and holding what the tests wrote: they use
 * streams of their own; the options do not apply to it), or else a fresh stand-in (decision 0009).
 */
export async function startEventStoreDbUnderTest(
  options: EventStoreDbStandInOptions = {},
): Promise<EventStoreDbUnderTest> {
  if (configuredUrl) return { url: configuredUrl, stop: () => Promise.resolve() };
  return startEventStoreDbStandIn(options);
}
