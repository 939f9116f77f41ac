// The exported constants and functions beside query(), against the official package on the same input:
// the constants' values, archiveSession's mark, the subagent readers on hand-written transcripts, and
// filterEscalatingDefaultMode on each trust tier.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import * as official from '@anthropic-ai/claude-agent-sdk';
import * as warden from '../../src/index.js';
import { NotFoundError, type ResolvedSettings } from '../../src/index.js';
import { assistant, createConfigDir, id, sessionId, user, type ConfigDir } from './sessions-fixtures.js';

const CONSTANTS = [
  'HOOK_EVENTS',
  'EXIT_REASONS',
  'BUILTIN_TOOL_NAMES',
  'LEGACY_TOOL_NAME_ALIASES',
  'ORG_POLICY_LIMIT_PREFIXES',
  'USAGE_LIMIT_ERROR_PREFIXES',
  'USAGE_TRANSITION_PREFIXES',
  'USAGE_WARNING_PREFIXES',
  'SYSTEM_PROMPT_DYNAMIC_BOUNDARY',
] as const;

describe('exported constants', () => {
  for (const name of CONSTANTS)
    it(`${name} equals the official value`, () => assert.deepEqual(warden[name], official[name]));
});

describe('filterEscalatingDefaultMode', () => {
  const cases: [string, string][] = [];
  for (const mode of ['default', 'acceptEdits', 'auto', 'bypassPermissions', 'plan'])
    for (const source of ['user', 'project', 'local', 'flag', 'managed']) cases.push([mode, source]);
  for (const [mode, source] of cases)
    it(`${mode} set by ${source}`, () => {
      const resolved = {
        effective: { model: 'x', permissions: { defaultMode: mode, allow: ['Read'] } },
        provenance: {},
        sources: [
          { source: 'user', settings: { permissions: { defaultMode: 'default' } } },
          { source, settings: { permissions: { defaultMode: mode } } },
        ],
      } as ResolvedSettings;
      assert.deepEqual(
        warden.filterEscalatingDefaultMode(resolved),
        official.filterEscalatingDefaultMode(resolved as never),
      );
    });
});

describe('archiveSession and the subagent readers', () => {
  let dir: ConfigDir;
  let restore: () => void;
  let withAgents: string;
  let transcriptPath: string;
  before(() => {
    dir = createConfigDir();
    restore = dir.activate();
    withAgents = sessionId(1);
    const a = user('start two agents');
    transcriptPath = dir.write(withAgents, [a, assistant('ok', id(a))]);
    const agents = join(transcriptPath.replace(/\.jsonl$/, ''), 'subagents');
    mkdirSync(join(agents, 'nested'), { recursive: true });
    const agentLines = (agentId: string, text: string) => {
      const q = user(text, null, { isSidechain: true, agentId });
      const r = assistant(`done: ${text}`, id(q), { isSidechain: true, agentId });
      return [q, r].map((e) => JSON.stringify({ sessionId: withAgents, ...e })).join('\n') + '\n';
    };
    writeFileSync(join(agents, 'agent-a1.jsonl'), agentLines('a1', 'look around'));
    writeFileSync(join(agents, 'agent-a1.meta.json'), JSON.stringify({ toolUseId: 'toolu_a1' }));
    writeFileSync(join(agents, 'nested', 'agent-b2.jsonl'), agentLines('b2', 'nested work'));
    writeFileSync(join(agents, 'notes.txt'), 'not an agent');
  });
  after(() => {
    restore();
    dir.cleanup();
  });

  it('listSubagents finds nested agents as the official one does', async () => {
    const ours = await warden.listSubagents(withAgents);
    assert.deepEqual(ours.sort(), ['a1', 'b2']);
    assert.deepEqual(ours.sort(), (await official.listSubagents(withAgents)).sort());
    assert.deepEqual(await warden.listSubagents(sessionId(99)), await official.listSubagents(sessionId(99)));
    assert.deepEqual(await warden.listSubagents('not-a-uuid'), []);
  });

  it('getSubagentMessages equals the official result', async () => {
    for (const agent of ['a1', 'b2', 'missing', ''])
      assert.deepEqual(
        await warden.getSubagentMessages(withAgents, agent),
        await official.getSubagentMessages(withAgents, agent),
        agent,
      );
    const [first] = await warden.getSubagentMessages(withAgents, 'a1');
    assert.equal(first?.parent_tool_use_id, 'toolu_a1');
  });

  it('archiveSession writes the mark the official one writes; unknown sessions are NotFoundError', async () => {
    const mark = join(transcriptPath.replace(/\.jsonl$/, ''), 'archived.json');
    await official.archiveSession(withAgents);
    const theirs = JSON.parse(readFileSync(mark, 'utf8')) as Record<string, unknown>;
    await warden.unarchiveSession(withAgents);
    await warden.archiveSession(withAgents);
    const ours = JSON.parse(readFileSync(mark, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(ours), Object.keys(theirs));
    assert.equal(ours.archived, true);
    assert.equal(ours.by, theirs.by);
    await warden.unarchiveSession(withAgents);
    assert.equal((JSON.parse(readFileSync(mark, 'utf8')) as { archived: boolean }).archived, false);
    await assert.rejects(warden.archiveSession(sessionId(98)), NotFoundError);
    await assert.rejects(warden.archiveSession('nope'), TypeError);
  });
});
