/**
 * A mistake on the command line or in the CLI's environment variables: exit 2, the message
 * names the option, and nothing was sent. The code is what `--json` prints.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly code = 'USAGE',
  ) {
    super(message)
    this.name = 'UsageError'
  }
}
