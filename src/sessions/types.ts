// The session functions' arguments and results, with the official Agent SDK's names and fields (0.3.328),
// so code that lists and reads past sessions moves over by changing the import. Fields marked "Warden:"
// are additions; `sessionStore` (an alpha feature of the official SDK) is not supported.
import type { WardenError } from '../protocol/errors.js';
import type { SDKMessageOrigin } from '../protocol/messages.js';

/** Session metadata returned by listSessions and getSessionInfo. */
export type SDKSessionInfo = {
  /** The session's UUID (the transcript's file name). */
  sessionId: string;
  /** Display title: the custom title, else the last prompt, else the CLI's summary, else the first prompt. */
  summary: string;
  /** The transcript's mtime, integer milliseconds since the epoch. */
  lastModified: number;
  /** The transcript's size in bytes. */
  fileSize?: number;
  /** Set by renameSession (or /rename), or the CLI's generated title. */
  customTitle?: string;
  /** The first prompt a person typed, newlines flattened, at most 200 characters plus an ellipsis. */
  firstPrompt?: string;
  /** Git branch at the end of the session. */
  gitBranch?: string;
  /** Working directory of the session. */
  cwd?: string;
  /** Set by tagSession. */
  tag?: string;
  /** Timestamp of the transcript's first entry, milliseconds since the epoch. */
  createdAt?: number;
  /**
   * Whether the session is archived: false if it was and has been unarchived, or a prompt was sent in it
   * since. Absent if it never was.
   */
  archived?: boolean;
};

/** A message of a session transcript, as getSessionMessages returns it. */
export type SessionMessage = {
  type: 'user' | 'assistant' | 'system';
  uuid: string;
  session_id: string;
  /** The transcript entry's `message`, untouched (undefined for system entries). */
  message: unknown;
  parent_tool_use_id: string | null;
  parent_agent_id: string | null;
  /** Not in the official type, but set at run time by both SDKs: the entry is a compaction summary. */
  isCompactSummary?: true;
  /** Not in the official type, but set at run time by both SDKs: a summary or transcript-only entry. */
  is_meta?: true;
  /** Not in the official type, but set at run time by both SDKs: tool calls that did not run, and why. */
  tool_result_meta?: { id: string; non_execution_kind: string }[];
  /** Not in the official type, but set at run time by both SDKs: who started the turn, when not a person. */
  origin?: SDKMessageOrigin;
  /** Not in the official type, but present at run time in both SDKs: the entry's ISO timestamp. */
  timestamp?: string;
};

/** Warden: where problems that are not fatal go (a malformed transcript line). */
export type SessionDiagnostics = {
  /** Defaults to process.emitWarning. */
  onWarning?: (warning: WardenError) => void;
};

export type ListSessionsOptions = SessionDiagnostics & {
  /** A project directory: only its sessions (and, by default, those of its git worktrees). */
  dir?: string;
  /** At most this many sessions (0 or absent: all). */
  limit?: number;
  /** Skip this many sessions of the sorted list. */
  offset?: number;
  /** With `dir` inside a git repository, include the sessions of all its worktrees. Default true. */
  includeWorktrees?: boolean;
  /** Include sessions started through an SDK (entrypoints sdk-ts, sdk-py, sdk-cli). Default true. */
  includeProgrammatic?: boolean;
};

export type GetSessionInfoOptions = SessionDiagnostics & {
  /** A project directory to look in; omitted, every project is searched. */
  dir?: string;
};

export type GetSessionMessagesOptions = SessionDiagnostics & {
  dir?: string;
  /** At most this many messages (0 or absent: all). */
  limit?: number;
  /** Skip this many messages from the start. */
  offset?: number;
  /** Also return `system` entries (compact boundaries, notices). Default false. */
  includeSystemMessages?: boolean;
};

export type SessionMutationOptions = SessionDiagnostics & {
  /** A project directory to look in; omitted, every project is searched. */
  dir?: string;
};

export type ForkSessionOptions = SessionMutationOptions & {
  /** Copy the conversation up to and including this message (a SessionMessage's `uuid`). */
  upToMessageId?: string;
  /** The fork's title; default: the source's title plus " (fork)". */
  title?: string;
};

export type ForkSessionResult = {
  /** The new session's UUID; resumable with `query({ options: { resume: sessionId } })`. */
  sessionId: string;
};
