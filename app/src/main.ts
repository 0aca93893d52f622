import { runMain } from '@wagers/platform/main';
import { startWagers } from './server.ts';

/** `npm start`: the whole product on one port, on embedded defaults. */
runMain('wagers', startWagers);
