import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds web/dist when it is missing or older than any source it is made from, so `npm start`
 * and `npm test` on a fresh clone need no separate build step.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = path.join(root, 'web/dist/index.html');
const sources = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/public', 'contracts/src'];

function newest(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce(
    (max, entry) => Math.max(max, newest(path.join(target, entry))),
    stat.mtimeMs,
  );
}

export function ensureWebBuilt(): void {
  const builtAt = existsSync(dist) ? statSync(dist).mtimeMs : 0;
  const changedAt = Math.max(...sources.map((source) => newest(path.join(root, source))));
  if (changedAt > builtAt) {
    console.log('web: building the web app (vite build)...');
    // Always the production bundle, whatever NODE_ENV the caller runs under (tests run the
    // product with NODE_ENV=test, which would otherwise build React's development files).
    execSync('npm run build -w web --silent', {
      cwd: root,
      stdio: 'inherit',
      // eslint-disable-next-line no-restricted-properties -- passes the caller's environment on to the build
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]))
  ensureWebBuilt();
