// A command line that cannot be run as written: `warden` says what was wrong and exits 2.
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The command the line named, when known: its usage is printed after the message. */
  command: string | undefined;

  constructor(message: string, options?: { command?: string }) {
    super(message);
    this.command = options?.command;
  }
}
