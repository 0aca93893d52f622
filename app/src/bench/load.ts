import autocannon from 'autocannon';

/**
 * Runs one autocannon load in a process of its own, so the load generator does not share an
 * event loop with the server it measures. Takes its options as JSON in argv[2]; prints the
 * figures as JSON on stdout.
 */
export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  seconds: number;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
const result = await autocannon({
  url: options.url,
  method: options.method,
  connections: options.connections,
  duration: options.seconds,
  headers: options.headers,
  body: options.body,
});
const figures: LoadFigures = {
  requestsPerSecond: result.requests.total / options.seconds,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
};
console.log(JSON.stringify(figures));
