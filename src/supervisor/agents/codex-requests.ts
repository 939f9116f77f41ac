// The Codex app-server's requests and decisions in Warden's terms (agent.ts), both ways. Pure: a command
// approval is judged as the Bash call it is (the `bash -lc '…'` wrapper Codex adds taken off, so the
// policy's parse sees the script), a file change as a Write or Edit of each path the item announced; and
// Warden's decision becomes the Codex decision the request offers (docs/agents.md has the table).
import type {
  CommandExecutionApprovalDecision,
  CommandExecutionRequestApprovalParams,
  FileChangeApprovalDecision,
  FileChangeRequestApprovalParams,
} from '../../agents/codex/index.js';
import type { AgentDecision, AgentPermissionRequest } from './agent.js';

/** `/bin/bash -lc 'script'` (or sh, zsh; -c or -lc), the script single-quoted with `'\''` for a quote. */
const SHELL_WRAPPER = /^(?:\/usr)?(?:\/bin\/)?(?:bash|sh|zsh) -l?c '((?:[^']|'\\'')*)'$/;

/** The script Codex will run, without the shell wrapper it adds to every command. */
export function unwrapCommand(command: string): string {
  const match = SHELL_WRAPPER.exec(command);
  return match?.[1] === undefined ? command : match[1].replaceAll("'\\''", "'");
}

/** A change of one file, as the `fileChange` item of `item/started` announces it. */
export interface CodexFileChange {
  readonly path: string;
  readonly kind: { readonly type: string };
  readonly diff: string;
}

export function commandRequest(
  id: string,
  params: CommandExecutionRequestApprovalParams,
): AgentPermissionRequest {
  const script = unwrapCommand(params.command ?? '');
  return {
    requestId: id,
    kind: 'command',
    toolName: 'Bash',
    input: { command: script, ...(params.cwd == null ? {} : { cwd: params.cwd }) },
    ...(params.reason == null ? {} : { reason: params.reason }),
    ...(params.proposedExecpolicyAmendment == null
      ? {}
      : { proposedRule: params.proposedExecpolicyAmendment }),
    turnId: params.turnId,
    raw: params,
  };
}

/**
 * A file change, judged as the strictest of its parts: each changed file is a Write (an added one) or an
 * Edit (any other) of its path, judged on its own. The first stands for the card's heading; the card
 * shows every change (`changes`: its path, kind and diff — an added file's diff is its content).
 */
export function fileChangeRequest(
  id: string,
  params: FileChangeRequestApprovalParams,
  changes: readonly CodexFileChange[],
): AgentPermissionRequest {
  const first = changes[0];
  return {
    requestId: id,
    kind: 'file_change',
    toolName: toolOf(first),
    input: {
      file_path: first?.path ?? params.grantRoot ?? '',
      paths: changes.map((change) => change.path),
      changes: changes.map((change) => ({ path: change.path, kind: change.kind.type, diff: change.diff })),
    },
    parts: changes.map((change) => ({ toolName: toolOf(change), input: { file_path: change.path } })),
    ...(params.reason == null ? {} : { reason: params.reason }),
    turnId: params.turnId,
    raw: params,
  };
}

const toolOf = (change: CodexFileChange | undefined): 'Write' | 'Edit' =>
  change?.kind.type === 'add' ? 'Write' : 'Edit';

type Offered = readonly unknown[] | null | undefined;

const offers = (available: Offered, decision: string): boolean =>
  available == null || available.some((entry) => entry === decision);

/** The amendment variant when the request offers it (under `untrusted` it replaces acceptForSession). */
function amendmentOffered(available: Offered): CommandExecutionApprovalDecision | undefined {
  const entry = available?.find(
    (candidate) =>
      typeof candidate === 'object' && candidate !== null && 'acceptWithExecpolicyAmendment' in candidate,
  );
  return entry as CommandExecutionApprovalDecision | undefined;
}

/**
 * Warden's decision as the Codex decision for a command: allow → accept; always → acceptForSession, or
 * the execpolicy amendment Codex proposed where that is what it offers (the exact rule it adds); deny →
 * decline; deny-and-stop → cancel (Codex then ends the turn).
 */
export function commandDecision(
  decision: AgentDecision,
  available: Offered,
): CommandExecutionApprovalDecision {
  switch (decision.behavior) {
    case 'allow':
      return 'accept';
    case 'always':
      if (offers(available, 'acceptForSession')) return 'acceptForSession';
      return amendmentOffered(available) ?? 'accept';
    case 'deny':
      // Codex 0.171.0 does not list decline among the choices, yet honours it: the command does not run
      // and the turn goes on. cancel would end the turn, which a plain deny must not.
      return 'decline';
    case 'deny-and-stop':
      return 'cancel';
  }
}

/** The same for a file change, whose request lists no choices: every one of the four is accepted. */
export function fileChangeDecision(decision: AgentDecision): FileChangeApprovalDecision {
  switch (decision.behavior) {
    case 'allow':
      return 'accept';
    case 'always':
      return 'acceptForSession';
    case 'deny':
      return 'decline';
    case 'deny-and-stop':
      return 'cancel';
  }
}
