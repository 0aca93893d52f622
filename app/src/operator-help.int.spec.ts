import { describe, expect, it } from 'vitest';
import { runScript } from './test-support/run-script.ts';

/** A database nobody listens on: asking for help must not need one. */
const noDatabase = 'postgres://postgres@127.0.0.1:1/wagers';

describe.each(['audit', 'auditors', 'invites'])('npm run %s', (script) => {
  it.each(['--help', '-h'])(
    'prints its usage to stdout and succeeds when asked %s',
    async (flag) => {
      const run = await runScript(script, [flag], noDatabase);
      expect(run.stdout).toContain(`Usage: npm run ${script} -- <command>`);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    },
  );

  it('prints its usage to stderr and exits 2 for a command it does not know', async () => {
    const run = await runScript(script, ['frobnicate'], noDatabase);
    expect(run.stderr).toContain(`Usage: npm run ${script} -- <command>`);
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
  });
});
