/**
 * A mistake in the command line itself (unknown command, missing module, bad JSON): the
 * CLI prints the message alone, on one line, and exits with 2.
 */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

/** Exit codes, as shells and CI read them. */
export const EXIT_OK = 0;
/** The tool answered `isError: true`, or the app failed. */
export const EXIT_FAILURE = 1;
/** The command line was wrong: the message says what to type. */
export const EXIT_USAGE = 2;
