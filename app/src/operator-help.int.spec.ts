import { describe, expect, it } from 'vitest';
import { runScript } from './test-support/run-script.ts';

/** A database nobody listens on: asking for help must not need one. */
const noDatabase = 'postgres://postgres@127.0.0.1:1/wagers';

/**
 * Each operator command line, and commands of its own followed by `--help` or `-h`: a question
 * wherever it stands, never a value (a bet id, an email) or an option to refuse.
 */
const commandLines = [
  {
    script: 'audit',
    usage: 'Usage: npm run audit -- <command>',
    asked: [
      ['verify', '--help'],
      ['verify', '0b9e6a4c-1f2d-4e3a-9b8c-7d6e5f4a3b2c', '-h'],
      ['anchor', '--help'],
    ],
  },
  {
    script: 'auditors',
    usage: 'Usage: npm run auditors -- <command>',
    asked: [
      ['grant', 'ann@example.com', '--help'],
      ['revoke', '-h'],
      ['list', '--help'],
    ],
  },
  {
    script: 'invites',
    usage: 'Usage: npm run invites -- <command>',
    asked: [['sign-pending', '--help']],
  },
  {
    script: 'projections',
    workspace: 'projection-service',
    usage: 'Usage: npm run projections -w projection-service -- <command>',
    asked: [
      ['status', '-h'],
      ['rebuild', 'bets', '--manual-switch', '--help'],
      ['switch', 'bets', '-h'],
      ['retire', 'bets', '--help', '3'],
      ['skip', 'bets', '1-1', '-h'],
    ],
  },
];

describe.each(commandLines)('npm run $script', ({ script, workspace, usage, asked }) => {
  const run = (args: string[]) => runScript(script, args, noDatabase, workspace);

  it.each(['--help', '-h'])(
    'prints its usage to stdout and succeeds when asked %s',
    async (flag) => {
      const help = await run([flag]);
      expect(help.stdout).toContain(usage);
      expect(help.stderr).toBe('');
      expect(help.code).toBe(0);
    },
  );

  it('prints its usage to stdout and succeeds, running nothing, when --help or -h follows a command', async () => {
    const runs = await Promise.all(asked.map(run));
    runs.forEach((help, index) => {
      const args = asked[index]!.join(' ');
      expect(help.stdout, args).toContain(usage);
      expect(help.stderr, args).toBe('');
      expect(help.code, args).toBe(0);
    });
  }, 180_000);

  it('prints its usage to stderr and exits 2 for a command it does not know', async () => {
    const wrong = await run(['frobnicate']);
    expect(wrong.stderr).toContain(usage);
    expect(wrong.stdout).toBe('');
    expect(wrong.code).toBe(2);
  });
});
