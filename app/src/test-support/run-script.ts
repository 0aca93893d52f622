import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run <script> -- ...args` from the repository against the test app's database; with
 * `workspace`, the script of that workspace (`npm run <script> -w <workspace> -- ...args`).
 */
export function runScript(
  script: string,
  args: string[],
  databaseUrl: string,
  workspace?: string,
): Promise<CliRun> {
  const where = workspace ? ['-w', workspace] : [];
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', script, ...where, '--', ...args],
      {
        cwd: root,
        // The tests' own environment, pointed at the test database (as an operator would run it).
        env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Runs a Node.js script of the repository (path from its root), as an outside party would. */
export function runNode(scriptPath: string, args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [scriptPath, ...args], { cwd: root }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
