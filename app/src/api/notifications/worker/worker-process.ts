import { loadConfig } from '@wagers/platform/config';
import { startStandaloneWorker } from './standalone-worker.ts';

/**
 * A notifier worker in a process of its own, so a test can kill it outright (SIGKILL) in the
 * middle of a batch. Its short lock lets another worker take its jobs back soon after.
 */
const { worker } = startStandaloneWorker(loadConfig(), { concurrency: 2, lockDuration: 1500 });
await worker.waitUntilReady();
process.stdout.write('ready\n');
