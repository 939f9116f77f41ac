// What follows from sending the CLI its MCP servers over stdin (`mcpServersDelivery: 'initialize'`), as in
// the official SDK 0.3.333: the answer to `initialize` must say whether the CLI took them
// (`mcp_servers_applied`); a CLI that does not know the field is too old and the session ends before any
// prompt is sent; one that says false runs without them (a process warning). A CLI that does not know
// `--await-initialize` at all exits at once; its exit error then says why and what to change.
import { CliTooOldError, ProcessExitError } from '../protocol/errors.js';
import { MCP_SERVERS_VIA_INITIALIZE_SINCE } from './cli-capabilities.js';

/** The warning code the official SDK uses when the CLI did not load the servers. */
export const MCP_SERVERS_NOT_APPLIED_CODE = 'CLAUDE_SDK_MCP_SERVERS_NOT_APPLIED';
const UNKNOWN_OPTION = "unknown option '--await-initialize'";

/** The error that ends the session, or undefined; warns (once per answer) when the servers were not loaded. */
export function checkMcpServersApplied(
  response: Record<string, unknown>,
  warn: (text: string, code: string) => void,
): CliTooOldError | undefined {
  const applied = response.mcp_servers_applied;
  if (typeof applied !== 'boolean') {
    const version =
      typeof response.claude_code_version === 'string' ? response.claude_code_version : undefined;
    return new CliTooOldError(
      `This Claude Code${version === undefined ? '' : ` (version ${version})`} is too old to read MCP ` +
        `servers over stdin, which is how they are sent by default, so the session was ended and no prompt ` +
        `was sent. Update it to ${MCP_SERVERS_VIA_INITIALIZE_SINCE} or newer, use the bundled one, or set ` +
        `mcpServersDelivery: 'argv', which puts the servers' env and headers on Claude Code's command line, ` +
        'where other users of the machine can read them.',
      version,
    );
  }
  if (!applied)
    warn(
      'Claude Code reported that it did not load the MCP servers sent in the initialize request, so this ' +
        'session may be running without them. Check that no wrapper removes --await-initialize from the launch.',
      MCP_SERVERS_NOT_APPLIED_CODE,
    );
  return undefined;
}

/** The exit error of a CLI that refused `--await-initialize`, with the reason and the way out appended. */
export function withAwaitInitializeHint(error: Error): Error {
  if (!(error instanceof ProcessExitError) || !error.stderrTail.includes(UNKNOWN_OPTION)) return error;
  return new ProcessExitError(
    error.exitCode,
    error.signal,
    error.stderrTail,
    `MCP servers are sent over stdin by default (--await-initialize), which needs Claude Code ` +
      `${MCP_SERVERS_VIA_INITIALIZE_SINCE} or newer: update the Claude Code you start, or set ` +
      "mcpServersDelivery: 'argv', which puts the servers' env and headers on its command line.",
  );
}
