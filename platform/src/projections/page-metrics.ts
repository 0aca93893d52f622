import { Histogram } from 'prom-client';

/**
 * How live projection goes in this process, page by page: how long each live page a follower
 * applied took, from its events in hand to its commit, and how many events it held. Under a
 * steady flow a follower applies pages back to back, so the time a page takes is about what an
 * event waits for the page after the one it missed: the figures read-your-writes waits on. Every
 * /metrics of the process shows them (`createMetrics`).
 */
export const livePageSeconds = new Histogram({
  name: 'wagers_projection_live_page_seconds',
  help: 'Time a projector took to apply a live page, from its events read to its commit',
  labelNames: ['projector'],
  buckets: [0.002, 0.005, 0.01, 0.02, 0.035, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [],
});

export const livePageEvents = new Histogram({
  name: 'wagers_projection_live_page_events',
  help: 'Events in each live page a projector applied',
  labelNames: ['projector'],
  buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
  registers: [],
});
