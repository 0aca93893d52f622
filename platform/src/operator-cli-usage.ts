/**
 * Whether an operator's command line asks for its usage: `--help` or `-h` anywhere among its
 * arguments (after a command as well: `audit verify --help` is no bet id), or `help` as its
 * command. None of the command lines takes a value that could be either.
 */
export function asksForHelp(args: readonly string[]): boolean {
  return args[0] === 'help' || args.some((arg) => arg === '--help' || arg === '-h');
}

/**
 * Prints a command line's usage where it belongs and gives the code to exit with. Asked for (see
 * asksForHelp), it goes to stdout: 0. Otherwise the command line was asked wrongly: to stderr, 2.
 */
export function showUsage(usage: string, args: readonly string[]): 0 | 2 {
  if (asksForHelp(args)) {
    console.log(usage);
    return 0;
  }
  console.error(usage);
  return 2;
}

/** Ends a command line that was asked for its usage, or asked wrongly: see showUsage. */
export function exitWithUsage(usage: string, args: readonly string[]): never {
  process.exit(showUsage(usage, args));
}
