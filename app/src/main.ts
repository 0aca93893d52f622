import { runMain } from '@wagers/platform/main';
import { startBanner } from './banner.ts';
import { ensureWebBuilt } from './build-web-if-needed.ts';
import { startWagers } from './server.ts';

/** `npm start`: the whole product on one port, on embedded defaults. */
ensureWebBuilt();
runMain('wagers', async (config, logger) => {
  const running = await startWagers(config, logger);
  if (!config.production) process.stdout.write(`${startBanner(running, config)}\n`);
  return running;
});
