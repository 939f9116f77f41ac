// The session functions, twice over: on each world's transcripts (written by real CLI runs), the official
// SDK's and Warden's listSessions / getSessionInfo / getSessionMessages must return the same; and across
// the two worlds (one driven by each SDK) the sessions must look the same once ids and times are set aside.
import assert from 'node:assert/strict';

import type { SDKSessionInfo, SessionMessage } from '@anthropic-ai/claude-agent-sdk';
import type { World } from './harness.js';
import { normaliseContentOf } from './normalise.js';
import { OFFICIAL, WARDEN } from './sdks.js';

const MESSAGE_QUERIES = [{}, { includeSystemMessages: true }, { limit: 2, offset: 1 }] as const;

/** Runs `fn` with CLAUDE_CONFIG_DIR pointing at the world's transcripts. */
export async function inWorld<T>(world: World, fn: () => Promise<T>): Promise<T> {
  const previous = process.env.CLAUDE_CONFIG_DIR;
  process.env.CLAUDE_CONFIG_DIR = world.configDir;
  try {
    return await fn();
  } finally {
    if (previous === undefined) delete process.env.CLAUDE_CONFIG_DIR;
    else process.env.CLAUDE_CONFIG_DIR = previous;
  }
}

/**
 * The official SDK leaves absent optional fields as keys with value undefined; Warden omits them. No
 * application can tell the two apart except by `in` or Object.keys, so compare as JSON.
 */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value ?? null)) as T;
}

interface WorldSessions {
  infos: SDKSessionInfo[];
  messages: Map<string, SessionMessage[]>;
}

async function sameOnBothSdks(world: World): Promise<WorldSessions> {
  return inWorld(world, async () => {
    const dir = world.scratch.cwd;
    const infos = await OFFICIAL.listSessions({ dir });
    assert.deepEqual(
      plain(await WARDEN.listSessions({ dir })),
      plain(infos),
      `${world.name} world: listSessions({dir})`,
    );
    assert.deepEqual(
      plain(await WARDEN.listSessions()),
      plain(await OFFICIAL.listSessions()),
      'listSessions()',
    );
    const page = { dir, limit: 2, offset: 1 };
    assert.deepEqual(
      plain(await WARDEN.listSessions(page)),
      plain(await OFFICIAL.listSessions(page)),
      'paged',
    );
    const messages = new Map<string, SessionMessage[]>();
    for (const { sessionId } of infos) {
      assert.deepEqual(
        plain(await WARDEN.getSessionInfo(sessionId)),
        plain(await OFFICIAL.getSessionInfo(sessionId)),
        `getSessionInfo ${sessionId}`,
      );
      for (const options of MESSAGE_QUERIES) {
        const expected = await OFFICIAL.getSessionMessages(sessionId, { dir, ...options });
        const actual = await WARDEN.getSessionMessages(sessionId, { dir, ...options });
        assert.deepStrictEqual(
          actual,
          expected,
          `getSessionMessages ${sessionId} ${JSON.stringify(options)}`,
        );
      }
      messages.set(sessionId, await OFFICIAL.getSessionMessages(sessionId, { dir }));
    }
    return { infos, messages };
  });
}

/** A session as a person would describe it: titles, prompts and the conversation, without ids or times. */
function describeSession(info: SDKSessionInfo, messages: SessionMessage[]): unknown {
  return {
    summary: info.summary,
    firstPrompt: info.firstPrompt,
    customTitle: info.customTitle,
    tag: info.tag,
    messages: messages.map((m) => ({ type: m.type, content: normaliseContentOf(m.message) })),
  };
}

/**
 * Within each world both SDKs return the same; with `acrossWorlds` (the default) the two worlds' sessions
 * must also look the same — leave it off after a scenario whose runs differ by design.
 */
export async function assertSessionFunctionsAgree(
  worlds: readonly World[],
  { acrossWorlds = true }: { acrossWorlds?: boolean } = {},
): Promise<void> {
  // One world at a time: each points CLAUDE_CONFIG_DIR at its own transcripts.
  const [official, warden] = [await sameOnBothSdks(worlds[0]!), await sameOnBothSdks(worlds[1]!)];
  assert.ok(official.infos.length > 0, 'the runs left sessions to list');
  if (!acrossWorlds) return;
  const describeAll = ({ infos, messages }: WorldSessions) =>
    infos.map((info) => describeSession(info, messages.get(info.sessionId) ?? []));
  assert.deepEqual(describeAll(warden), describeAll(official), 'the sessions each SDK left look the same');
}
