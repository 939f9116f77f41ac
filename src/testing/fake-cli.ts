// Locates the fake CLI (a small Node script shipped in the package) and names its modes, so a host can
// test how it survives a CLI that crashes, floods, hangs or leaves processes behind, or replay a recorded
// session, without the real binary: spawn `process.execPath` with `fakeCliArgs(mode)`, or point
// `pathToClaudeCodeExecutable` at `fakeCliPath()` and set FAKE_CLI_MODE in its environment.
import { fileURLToPath } from 'node:url';

/**
 * The modes of the fake CLI. Select one with `--mode <name>` or the FAKE_CLI_MODE environment variable.
 * Every frame it writes is one JSON line carrying `seq` (0, 1, 2, ... in write order), so a test can check
 * that what it received is complete and in order. In short:
 * - `echo`: answers each stdin line with `{type:'echo', seq, line}`; exits 0 when stdin ends.
 * - `crash-mid-line`: a few frames, then half a frame without its newline; exits 3.
 * - `garbage`: frames interleaved with non-JSON text, non-object JSON, blank lines and a CRLF line.
 * - `flood`: many frames as fast as stdout accepts them (blocks when the host stops reading).
 * - `huge-line`: one line of FAKE_CLI_BYTES (1 MiB by default) between two small frames.
 * - `split-utf8`: multi-byte UTF-8 characters written one byte at a time.
 * - `burst-exit`: a burst of frames in one write, then an immediate exit.
 * - `ignore-sigterm`: ignores SIGTERM and stdin's end; only SIGKILL ends it.
 * - `never-respond`: reads stdin, never writes, never exits.
 * - `slow-reader`: never reads stdin, so the host's writes back up.
 * - `orphan`: exits while a grandchild keeps its stdout and stderr open.
 * - `setsid-grandchild`: starts a grandchild in a new session (outside the process group), then echoes.
 *
 * Protocol modes speak stream-json like the real CLI (they answer `initialize`, run a turn per user
 * message, send `session_state_changed` when asked to, print `fake-cli: pid <pid>` on stderr, and write a
 * JSON report of everything the host sent to FAKE_CLI_REPORT when they exit):
 * - `crash-mid-turn`: a few messages of a turn, then exit 3 with a line on stderr.
 * - `error-result-exit`: an error result with `errors`, then exit 1.
 * - `garbage-in-turn`: non-JSON lines between the messages of a normal turn.
 * - `huge-message`: one assistant message of FAKE_CLI_BYTES.
 * - `message-flood`: FAKE_CLI_COUNT (20,000) messages in one turn, progress on stderr.
 * - `hang-mid-turn`: a few messages, then nothing until stdin closes.
 * - `orphan-after-result`: a grandchild holds stdout; the CLI exits 0 right after the result.
 * - `permission-flood`: FAKE_CLI_COUNT `can_use_tool` requests one after another; reports valid replies.
 * - `never-initialize`: never answers `initialize`.
 * - `bg-permission-late`: a background agent's `can_use_tool` after the root result; reports whether it
 *   was answered or failed with "Stream closed" because stdin closed first.
 * - `replay`: plays the CLI side of a recorded transcript (FAKE_CLI_TRANSCRIPT), waiting for the host's
 *   lines where the recording did; FAKE_CLI_STRIP_STATE=1 drops its state frames.
 *
 * The header of test/fixtures/fake-cli.mjs documents each mode and its tuning variables exactly.
 */
export const FAKE_CLI_MODES = [
  'echo',
  'crash-mid-line',
  'garbage',
  'flood',
  'huge-line',
  'split-utf8',
  'burst-exit',
  'ignore-sigterm',
  'never-respond',
  'slow-reader',
  'orphan',
  'setsid-grandchild',
  'crash-mid-turn',
  'error-result-exit',
  'garbage-in-turn',
  'huge-message',
  'message-flood',
  'hang-mid-turn',
  'orphan-after-result',
  'permission-flood',
  'never-initialize',
  'bg-permission-late',
  'replay',
  'control-answers',
] as const;

export type FakeCliMode = (typeof FAKE_CLI_MODES)[number];

/** Absolute path of test/fixtures/fake-cli.mjs; the same relative hop works from src/testing and dist/testing. */
export function fakeCliPath(): string {
  return fileURLToPath(new URL('../../test/fixtures/fake-cli.mjs', import.meta.url));
}

/** Arguments for `spawn(process.execPath, fakeCliArgs(mode))`. */
export function fakeCliArgs(mode: FakeCliMode): string[] {
  if (!(FAKE_CLI_MODES as readonly string[]).includes(mode)) {
    throw new TypeError(
      `fakeCliArgs: unknown mode ${String(mode)}; expected one of ${FAKE_CLI_MODES.join(', ')}`,
    );
  }
  return [fakeCliPath(), '--mode', mode];
}
