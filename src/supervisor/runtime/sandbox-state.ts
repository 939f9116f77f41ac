// Whether the operating system holds the protected paths for this host's CLIs: chosen by the
// `sandbox` option, found out by the probe at open(), and corrected by what each CLI says of itself (the
// init message's `sandbox_enabled`, CLI 2.1.332 and later: false when it started without its sandbox).
// The policy reads `enforced` (a thread's CompiledPolicy.osEnforced); the host, the server and
// `warden status` show it.
import { SandboxUnavailableError, type WardenError } from '../../protocol/errors.js';
import type { SandboxMechanism, SandboxSupport } from './sandbox-probe.js';

export type SandboxMode = 'auto' | 'required' | 'off';
export const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'required', 'off'];
/** Where the option is not given: the sandbox wherever it can run. */
export const DEFAULT_SANDBOX_MODE: SandboxMode = 'auto';

/**
 * The mode where the option is not given: `WARDEN_SANDBOX` when set (as `warden serve` reads it; the
 * test runner's older-CLI pass sets `off`), else DEFAULT_SANDBOX_MODE. A value that is not a mode is a
 * TypeError, not a silent default.
 */
export function defaultSandboxMode(
  env: Readonly<Record<string, string | undefined>> = process.env,
): SandboxMode {
  const given = env.WARDEN_SANDBOX;
  if (given === undefined || given === '') return DEFAULT_SANDBOX_MODE;
  if (!(SANDBOX_MODES as readonly string[]).includes(given))
    throw new TypeError(
      `WARDEN_SANDBOX must be one of ${SANDBOX_MODES.join(', ')}, not ${JSON.stringify(given)}`,
    );
  return given as SandboxMode;
}

/** What the host shows of its sandbox. */
export interface SandboxStatus {
  readonly mode: SandboxMode;
  /** The CLIs' Bash commands run with the protected paths unwritable. */
  readonly enforced: boolean;
  /** Why not, when not enforced. */
  readonly reason: string | null;
  /** What holds them: Warden's bubblewrap prefix (Linux) or the CLI's own sandbox (macOS); null when off. */
  readonly mechanism: SandboxMechanism | null;
}

export class SandboxState {
  readonly mode: SandboxMode;
  /** What the probe found; undefined when off. */
  readonly support: SandboxSupport | undefined;
  #enforced: boolean;
  #reason: string | null;

  constructor(mode: SandboxMode, support: SandboxSupport | undefined) {
    this.mode = mode;
    this.support = mode === 'off' ? undefined : support;
    this.#enforced = mode !== 'off' && support?.available === true;
    this.#reason =
      mode === 'off' ? 'switched off (sandbox: off)' : this.#enforced ? null : (support?.reason ?? 'unknown');
  }

  /** Whether the CLIs are started with the sandbox settings. */
  get requested(): boolean {
    return this.mode !== 'off';
  }

  get status(): SandboxStatus {
    const mechanism = this.#enforced ? (this.support?.mechanism ?? null) : null;
    return { mode: this.mode, enforced: this.#enforced, reason: this.#reason, mechanism };
  }

  get enforced(): boolean {
    return this.#enforced;
  }

  /**
   * A CLI's init message: one that says its sandbox is off although the host asked for it (the CLI found
   * a dependency missing) turns `enforced` off for the host, with a warning once.
   */
  observeInit(frame: Record<string, unknown>, warn: (warning: WardenError) => void): void {
    if (!this.requested || frame.sandbox_enabled !== false || !this.#enforced) return;
    this.#enforced = false;
    this.#reason = 'a CLI reported that it runs without its sandbox (sandbox_enabled: false)';
    warn(new SandboxUnavailableError(this.#reason));
  }
}

/**
 * The host's sandbox state at open(): probed unless `off`. Throws SandboxUnavailableError for
 * `required` where the sandbox cannot run.
 */
export function openSandboxState(mode: SandboxMode, probe: () => SandboxSupport): SandboxState {
  const state = new SandboxState(mode, mode === 'off' ? undefined : probe());
  if (mode === 'required' && !state.enforced) throw new SandboxUnavailableError(state.status.reason ?? '');
  return state;
}
