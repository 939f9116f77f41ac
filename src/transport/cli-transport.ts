// What the session layer needs of a transport to a CLI, whichever way the CLI runs: a piped child
// (ChildTransport, the SDK's default) or a detached process read from its spool (DetachedTransport, the
// supervisor's), or anything a host builds itself from the same launch description.
import type { ChildExit } from './child-transport.js';
import type { TransportDiagnostic } from './diagnostics.js';

/** What Warden would spawn: the resolved executable, its argv, environment and directory. */
export interface CliLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** The complete environment (it replaces process.env), including the variables Warden adds. */
  readonly env: Record<string, string | undefined>;
  readonly cwd?: string;
  readonly maxFrameBytes?: number;
  readonly onStderr?: (text: string) => void;
  readonly onDiagnostic: (diagnostic: TransportDiagnostic) => void;
}

export interface CliTransport {
  readonly pid: number;
  /** Resolves once, when the CLI exits. Never rejects. */
  readonly exited: Promise<ChildExit>;
  /**
   * True when the transport joins a CLI that was already running (another host started it): what it
   * wrote before this host's `initialize` was answered is history, and the requests it still waits on
   * come again with that answer.
   */
  readonly attaching?: boolean;
  /** Single consumer; ends cleanly on close(), throws a WardenError when the CLI failed. */
  frames(): AsyncIterable<Record<string, unknown>>;
  send(frame: unknown): Promise<void>;
  endInput(): void;
  /** Ends the CLI and everything it started; resolves when they are gone. */
  close(): Promise<void>;
  /**
   * Lets go of the CLI without ending it, where the transport can (a detached CLI); resolves once a
   * write under way has finished and the transport holds nothing of the CLI's.
   */
  detach?(): Promise<void> | void;
}
