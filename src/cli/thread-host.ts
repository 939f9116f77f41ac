// Where `warden run` keeps its thread: a Supervisor of its own in this process (no server runs on the data
// directory), or the running `warden serve` of that directory, reached through its API — then the thread
// is in the one store the browser shows, and an approval can be answered in either place. The run command
// talks to both through this one shape.
import type { StoredEvent } from '../store/event-types.js';
import type { DecisionBehavior, ThreadMode, ThreadRecord, GrantScope } from '../store/records.js';
import type { Supervisor } from '../supervisor/index.js';
import type { ServerClient } from './client/server-client.js';

export interface NewRunThread {
  cwd: string;
  mode: ThreadMode;
  model?: string;
  agent?: 'codex';
}

export interface HostDecision {
  behavior: DecisionBehavior;
  message?: string;
  /** With deny: also stop the turn. */
  interrupt?: boolean;
  /** With allow_always: how long the rules hold, and which (the approval's, or narrower). */
  scope?: GrantScope;
  rules?: string[];
  /** With allow, for AskUserQuestion: the answer to each question, by its text. */
  answers?: Record<string, string>;
}

export interface ThreadHost {
  /** `attached` when the thread lives in a running server (it outlives this command). */
  readonly kind: 'local' | 'attached';
  /** Creates the thread and sends its first message; resolves with the thread and that message's run id. */
  start(thread: NewRunThread, prompt: string): Promise<{ thread: ThreadRecord; runId: string }>;
  /** The thread's events from its first, in order; ends when `signal` aborts. */
  events(threadId: string, signal: AbortSignal): AsyncIterable<StoredEvent>;
  /** Answers an approval; a ConflictError when it is no longer pending. */
  decide(approvalId: string, decision: HostDecision): Promise<void>;
  stop(threadId: string): Promise<void>;
}

export function localHost(supervisor: Supervisor): ThreadHost {
  return {
    kind: 'local',
    async start(thread, prompt) {
      const record = await supervisor.createThread(thread);
      const run = await supervisor.send(record.id, prompt);
      return { thread: record, runId: run.id };
    },
    events: (threadId, signal) => supervisor.events({ threadId, signal }),
    async decide(approvalId, decision) {
      // This process holds the data directory: whoever runs it is its owner.
      await supervisor.decide(approvalId, { ...decision, decidedBy: { name: 'owner', via: 'terminal' } });
    },
    stop: (threadId) => supervisor.stop(threadId),
  };
}

export function attachedHost(client: ServerClient): ThreadHost {
  return {
    kind: 'attached',
    async start(thread, prompt) {
      const created = await client.post<{ thread: ThreadRecord; run: { id: string } | null }>(
        '/api/threads',
        {
          ...thread,
          prompt,
        },
      );
      if (created.run === null) throw new TypeError('the server started no run for the prompt');
      return { thread: created.thread, runId: created.run.id };
    },
    // From the thread's first event: the server may have run the prompt before the stream opened.
    events: (threadId, signal) => client.events({ since: 0, threadId, signal }),
    async decide(approvalId, decision) {
      await client.post(`/api/approvals/${encodeURIComponent(approvalId)}/decision`, {
        ...decision,
        via: 'terminal',
      });
    },
    async stop(threadId) {
      await client.post(`/api/threads/${encodeURIComponent(threadId)}/stop`);
    },
  };
}
