import { ConfigError, loadConfig } from '@wagers/platform/config';
import { MissingRedisError } from '@wagers/platform/embedded';
import { createLogger } from '@wagers/platform/logger';
import { startWagers } from './server.ts';

/** `npm start`: the whole product on one port, on embedded defaults. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  let running;
  try {
    running = await startWagers(config, logger);
  } catch (error) {
    if (error instanceof MissingRedisError) {
      logger.fatal(error.message);
      process.exit(2);
    }
    logger.fatal({ err: error }, 'Wagers could not start');
    process.exit(1);
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    void running.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

void main();
