import { ConfigError, loadConfig, type Config } from './config.ts';
import { EmbeddedServerInUseError, MissingRedisError } from './embedded.ts';
import { UnusableFolderError } from './folders.ts';
import { createLogger, type Logger } from './logger.ts';
import type { RunningHost } from './service-host.ts';

/**
 * The entry point of every process: read the configuration (a bad value stops it, naming the
 * variable), start, and stop cleanly on SIGINT, SIGTERM and SIGHUP.
 */
export function runMain(
  name: string,
  start: (config: Config, logger: Logger) => Promise<RunningHost>,
): void {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL, { service: name }, config.logFormat);
  start(config, logger).then(
    (running) => {
      let stopping = false;
      const shutdown = (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'shutting down');
        void running.stop().then(() => process.exit(0));
      };
      process.on('SIGINT', () => shutdown('SIGINT'));
      process.on('SIGTERM', () => shutdown('SIGTERM'));
      process.on('SIGHUP', () => shutdown('SIGHUP'));
    },
    (error: unknown) => {
      // What the person starting it can set right is said in one line, without a stack.
      const plain =
        error instanceof MissingRedisError ||
        error instanceof EmbeddedServerInUseError ||
        error instanceof UnusableFolderError;
      if (plain) logger.fatal(error.message);
      else logger.fatal({ err: error }, `${name} could not start`);
      process.exit(plain ? 2 : 1);
    },
  );
}
