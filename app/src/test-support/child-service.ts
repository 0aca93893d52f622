import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@wagers/platform/embedded';
import { testRedisUrl } from './test-app.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface ChildService {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Ends the process with `signal` and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts a service's entry point (`app/src/main.ts` for the whole product) as its own process on
 * a free port against the given database and Redis prefix, and waits until /readyz answers.
 */
export async function startChildService(options: {
  entry: string;
  databaseUrl: string;
  queuePrefix: string;
  port?: number;
  env?: Record<string, string>;
}): Promise<ChildService> {
  const port = options.port ?? (await freePort());
  const url = `http://localhost:${port}`;
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', options.entry], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: testRedisUrl,
      QUEUE_PREFIX: options.queuePrefix,
      DEV_INBOX: 'true',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const service: ChildService = {
    url,
    child,
    output: () => output,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${options.entry} exited early:\n${output}`);
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return service;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await service.stop('SIGKILL');
  throw new Error(`${options.entry} not ready in 120 s:\n${output}`);
}
