import { runMain } from '@wagers/platform/main';
import { ensureWebBuilt } from './build-web-if-needed.ts';
import { startWagers } from './server.ts';

/** `npm start`: the whole product on one port, on embedded defaults. */
ensureWebBuilt();
runMain('wagers', startWagers);
