// The Codex requests and decisions in Warden's terms: the shell wrapper taken off for the policy's parse,
// file changes judged as Write / Edit of every path, and the decision table of docs/agents.md.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { decideToolCall } from '../../src/policy/can-use-tool.js';
import { policyFor } from '../../src/policy/index.js';
import type { AgentDecision } from '../../src/supervisor/agents/agent.js';
import {
  commandDecision,
  commandRequest,
  fileChangeDecision,
  fileChangeRequest,
  unwrapCommand,
} from '../../src/supervisor/agents/codex-requests.js';

void test('the bash -lc wrapper Codex adds is taken off, quotes restored; anything else is kept whole', () => {
  assert.equal(
    unwrapCommand("/bin/bash -lc 'echo hi > out.txt; cat out.txt'"),
    'echo hi > out.txt; cat out.txt',
  );
  assert.equal(unwrapCommand("/bin/bash -lc 'echo '\\''quoted'\\'''"), "echo 'quoted'");
  assert.equal(unwrapCommand("bash -c 'ls'"), 'ls');
  assert.equal(unwrapCommand('ls -la'), 'ls -la');
  assert.equal(unwrapCommand("/bin/bash -lc 'a' ; rm -rf x"), "/bin/bash -lc 'a' ; rm -rf x");
});

void test('a command approval becomes a Bash call with its cwd, reason and the rule Codex proposes', () => {
  const request = commandRequest('0', {
    kind: 'command',
    threadId: 't',
    turnId: 'turn-1',
    itemId: 'call_1',
    startedAtMs: 0,
    environmentId: 'local',
    command: "/bin/bash -lc 'npm test'",
    cwd: '/work',
    reason: 'run the tests',
    proposedExecpolicyAmendment: ['/bin/bash', '-lc', 'npm test'],
  });
  assert.equal(request.kind, 'command');
  assert.equal(request.toolName, 'Bash');
  assert.deepEqual(request.input, { command: 'npm test', cwd: '/work' });
  assert.equal(request.reason, 'run the tests');
  assert.deepEqual(request.proposedRule, ['/bin/bash', '-lc', 'npm test']);
  assert.equal(request.turnId, 'turn-1');
});

void test('a file change is a Write of an added file or an Edit, listing every change, each judged on its own', () => {
  const params = { threadId: 't', turnId: 'turn-1', itemId: 'p', startedAtMs: 0 };
  const added = fileChangeRequest('1', params, [{ path: '/w/a.txt', kind: { type: 'add' }, diff: 'a\n' }]);
  assert.equal(added.toolName, 'Write');
  assert.deepEqual(added.input['paths'], ['/w/a.txt']);
  assert.equal(added.input['file_path'], '/w/a.txt');
  const edited = fileChangeRequest('2', params, [
    { path: '/w/b.txt', kind: { type: 'update' }, diff: '-b\n+c\n' },
    { path: '/w/.git/config', kind: { type: 'update' }, diff: '+x\n' },
  ]);
  assert.equal(edited.toolName, 'Edit');
  assert.deepEqual(edited.input['paths'], ['/w/b.txt', '/w/.git/config']);
  assert.deepEqual(edited.input['changes'], [
    { path: '/w/b.txt', kind: 'update', diff: '-b\n+c\n' },
    { path: '/w/.git/config', kind: 'update', diff: '+x\n' },
  ]);
  // Each file is judged on its own: a protected path second in the list is not hidden by the first.
  assert.deepEqual(edited.parts, [
    { toolName: 'Edit', input: { file_path: '/w/b.txt' } },
    { toolName: 'Edit', input: { file_path: '/w/.git/config' } },
  ]);
  const verdicts = (edited.parts ?? []).map((part) =>
    decideToolCall(policyFor({ mode: 'auto-edits', cwd: '/w' }), part.toolName, part.input),
  );
  assert.deepEqual(
    verdicts.map((verdict) => verdict.behavior),
    ['allow', 'ask'],
    'the policy would allow the first alone, and asks for the protected one',
  );
});

const ALLOW: AgentDecision = { behavior: 'allow' };
const ALWAYS: AgentDecision = { behavior: 'always', scope: 'session' };
const DENY: AgentDecision = { behavior: 'deny', message: 'no' };
const STOP: AgentDecision = { behavior: 'deny-and-stop', message: 'stop' };

void test('the decision table: allow, always (session), deny and deny-and-stop as Codex decisions', () => {
  const all = ['accept', 'acceptForSession', 'decline', 'cancel'];
  assert.deepEqual(
    [ALLOW, ALWAYS, DENY, STOP].map((decision) => commandDecision(decision, all)),
    ['accept', 'acceptForSession', 'decline', 'cancel'],
  );
  assert.deepEqual(
    [ALLOW, ALWAYS, DENY, STOP].map((decision) => fileChangeDecision(decision)),
    ['accept', 'acceptForSession', 'decline', 'cancel'],
  );
  // What 0.171.0 offers under approvalPolicy "untrusted": no decline, no acceptForSession.
  const amendment = { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['/bin/bash', '-lc', 'ls'] } };
  const untrusted = ['accept', amendment, 'cancel'];
  assert.deepEqual(commandDecision(ALWAYS, untrusted), amendment);
  assert.equal(commandDecision(DENY, untrusted), 'decline', 'honoured though not listed');
  assert.equal(commandDecision(ALWAYS, ['accept', 'cancel']), 'accept');
  assert.equal(commandDecision(DENY, undefined), 'decline');
});
