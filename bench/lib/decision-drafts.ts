// Decision-sized events for measuring a store alone: a thread with a run, the approvals it asks, and the
// decisions that settle them (bench/store-backends.ts, bench/decisions-rate/store-rate.ts).
import type { EventDraft } from '../../src/store/index.js';

export const threadDrafts = (thread: string): EventDraft[] => [
  {
    type: 'thread.created',
    data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
  },
  {
    type: 'run.created',
    data: {
      runId: `${thread}-r`,
      status: 'running',
      trigger: 'human',
      prompt: 'p',
      userMessageId: 'u',
      generation: 1,
    },
  },
];

export const requested = (i: number, thread = 't'): EventDraft => ({
  type: 'approval.requested',
  data: {
    approvalId: `${thread}-a${i}`,
    runId: `${thread}-r`,
    subagentId: null,
    toolName: 'Bash',
    input: { command: 'cat /etc/os-release' },
    toolUseId: `t${i}`,
    requestId: `q${i}`,
    suggestions: [],
    alwaysAllowRules: [],
    blockedPath: null,
    decisionReason: null,
    generation: 1,
  },
});

export const decided = (i: number, thread = 't'): EventDraft => ({
  type: 'approval.decided',
  data: {
    approvalId: `${thread}-a${i}`,
    behavior: 'allow',
    message: null,
    interrupt: false,
    updatedPermissions: null,
    by: 'user',
    decidedBy: { name: 'alice', via: 'web' },
  },
});
