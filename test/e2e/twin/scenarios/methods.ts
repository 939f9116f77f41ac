// Twin scenarios for Query methods the real CLI can serve offline: reinitialize() with a permission prompt
// still pending, rewindFiles() after a turn that wrote files, getContextUsage(), and setMcpServers() adding
// a process server and an in-process one whose tools the next turn calls.
import type { CanUseTool, Options, Query, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { z } from 'zod';

import { scenario } from '../../../../src/testing/index.js';
import { heldInput } from '../../helpers/sdk-session.js';
import { drain, type Observation, type RunEnv, type TwinScenario } from '../harness.js';

const MCP_FIXTURE = fileURLToPath(new URL('../../../fixtures/mcp-resource-server.mjs', import.meta.url));

type Loose = Record<string, unknown>;

/**
 * A held-input session driven turn by turn: `turn(text)` sends a prompt and resolves with its result, so a
 * scenario can call Query methods between turns while the CLI is still running.
 */
function turnByTurn(env: RunEnv, options: Options) {
  const held = heldInput();
  const q: Query = env.sdk.query({ prompt: held.input, options });
  const seen: SDKMessage[] = [];
  let onResult: ((message: SDKMessage) => void) | undefined;
  const done = drain(q, (message) => {
    seen.push(message);
    if (message.type === 'result') onResult?.(message);
  });
  return {
    q,
    seen,
    /** Resolves with the turn's result, or undefined when the query ended without one. */
    turn(text: string): Promise<SDKMessage | undefined> {
      const result = new Promise<SDKMessage>((resolve) => (onResult = resolve));
      held.send(text);
      return Promise.race([result, done.then(() => undefined)]);
    },
    async finish(): Promise<Observation> {
      held.end();
      return done;
    },
  };
}

/** The scratch directory differs per world, and tool inputs carry it: name it the same on both. */
function portableMessages(messages: SDKMessage[], env: RunEnv): SDKMessage[] {
  return JSON.parse(JSON.stringify(messages).replaceAll(env.world.scratch.dir, '<scratch>')) as SDKMessage[];
}

/** The keys and value types of a reply, recursively; numbers and texts that differ per run drop out. */
export function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const shapes = new Set(value.map((item) => JSON.stringify(shapeOf(item))));
    return [...shapes].sort().map((shape) => JSON.parse(shape) as unknown);
  }
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, shapeOf((value as Loose)[key])]),
    );
  return typeof value;
}

/** A spawner that starts the CLI as the SDK would, and keeps a copy of every frame the CLI writes. */
function tappingSpawner(frames: Loose[]): NonNullable<Options['spawnClaudeCodeProcess']> {
  return ({ command, args, cwd, env, signal }) => {
    const child = spawn(command, args, { cwd, env, signal, stdio: ['pipe', 'pipe', 'ignore'] });
    let partial = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        try {
          frames.push(JSON.parse(line) as Loose);
        } catch {
          // Not a frame; the SDK under test decides what to make of it.
        }
      }
    });
    return child;
  };
}

/** Where the CLI put `pending_permission_requests` in an initialize answer (`response` is the envelope). */
function pendingPlacement(frame: Loose): unknown {
  const envelope = (frame.response ?? {}) as Loose;
  const inner = (envelope.response ?? {}) as Loose;
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 'absent');
  return {
    envelope: count(envelope.pending_permission_requests),
    payload: count(inner.pending_permission_requests),
  };
}

/** Initialize answers among the CLI's frames: the success replies that carry the command list. */
function initializeAnswers(frames: readonly Loose[]): Loose[] {
  return frames.filter((frame) => {
    const envelope = frame.response as Loose | undefined;
    return frame.type === 'control_response' && Array.isArray((envelope?.response as Loose)?.commands);
  });
}

function readScript() {
  return scenario()
    .on('read')
    .callTool('Read', { file_path: '/etc/hostname' })
    .thenAnswer((ctx) => (ctx.toolResults[0]?.isError === false ? 'Read it.' : 'Could not read it.'))
    .build();
}

/**
 * The first canUseTool call answers null (answered elsewhere; the answer never reached the CLI), the
 * client calls reinitialize(), and the CLI's answer hands the still-pending request over again.
 */
export const reinitializeRedelivers: TwinScenario = {
  name: 'reinitialize redelivers a pending permission request',
  async run(env) {
    const options = await env.start(readScript());
    const frames: Loose[] = [];
    const calls: Loose[] = [];
    let asked!: () => void;
    const firstAsk = new Promise<void>((resolve) => (asked = resolve));
    const canUseTool: CanUseTool = (toolName, input, { requestId }) => {
      calls.push({ toolName, input, requestId });
      if (calls.length === 1) {
        asked();
        return Promise.resolve(null);
      }
      return Promise.resolve({ behavior: 'allow', updatedInput: input });
    };
    const session = turnByTurn(env, {
      ...options,
      canUseTool,
      spawnClaudeCodeProcess: tappingSpawner(frames),
    });
    const result = session.turn('[[read]] read the host name');
    await firstAsk;
    const fresh = await session.q.reinitialize();
    await result;
    const observed = await session.finish();
    const answers = initializeAnswers(frames);
    return {
      ...observed,
      calls: calls.map(({ requestId: _id, ...rest }) => rest),
      facts: {
        sameRequestId: calls.length === 2 && calls[0]?.requestId === calls[1]?.requestId,
        reinitializeKeys: Object.keys(fresh).sort(),
        initializeAnswers: answers.length,
        secondAnswerPending: answers[1] === undefined ? 'none' : pendingPlacement(answers[1]),
      },
    };
  },
};

/** reinitialize() while canUseTool is still deciding: the request is not handed over a second time. */
export const reinitializeInFlight: TwinScenario = {
  name: 'reinitialize with the request still in flight',
  async run(env) {
    const options = await env.start(readScript());
    const calls: unknown[] = [];
    let asked!: () => void;
    const firstAsk = new Promise<void>((resolve) => (asked = resolve));
    let decide!: () => void;
    const decided = new Promise<void>((resolve) => (decide = resolve));
    const canUseTool: CanUseTool = async (toolName, input) => {
      calls.push({ toolName, input });
      asked();
      await decided;
      return { behavior: 'allow', updatedInput: input };
    };
    const session = turnByTurn(env, { ...options, canUseTool });
    const result = session.turn('[[read]] read the host name');
    await firstAsk;
    await session.q.reinitialize();
    decide();
    await result;
    return { ...(await session.finish()), calls };
  },
};

/** A turn reads and rewrites one file and creates another; rewindFiles to its prompt undoes both. */
export const rewindFiles: TwinScenario = {
  name: 'rewindFiles',
  async run(env) {
    const { cwd } = env.world.scratch;
    const notes = join(cwd, 'notes.txt');
    const created = join(cwd, 'created.txt');
    writeFileSync(notes, 'original\n');
    const script = scenario()
      .on('edit')
      .callTool('Read', { file_path: notes })
      .callTool('Write', { file_path: notes, content: 'changed\n' })
      .callTool('Write', { file_path: created, content: 'new\n' })
      .thenAnswer('Edited.')
      .build();
    const options = await env.start(script);
    const session = turnByTurn(env, {
      ...options,
      permissionMode: 'acceptEdits',
      enableFileCheckpointing: true,
      // The CLI echoes each prompt with its uuid: the id rewindFiles takes.
      extraArgs: { 'replay-user-messages': null },
    });
    await session.turn('[[edit]] change the notes');
    const afterTurn = { notes: readFileSync(notes, 'utf8'), created: existsSync(created) };
    const prompt = session.seen.find(
      (m) => m.type === 'user' && typeof (m.message as { content?: unknown }).content === 'string',
    );
    const userId = prompt?.uuid;
    const preview =
      userId === undefined ? 'no prompt uuid' : await session.q.rewindFiles(userId, { dryRun: true });
    const rewound = userId === undefined ? 'no prompt uuid' : await session.q.rewindFiles(userId);
    const afterRewind = { notes: readFileSync(notes, 'utf8'), created: existsSync(created) };
    const observed = await session.finish();
    return {
      ...observed,
      messages: portableMessages(observed.messages, env),
      facts: { afterTurn, preview, rewound, afterRewind },
    };
  },
};

/** getContextUsage() between turns: the same keys and value types on both. */
export const contextUsage: TwinScenario = {
  name: 'getContextUsage',
  async run(env) {
    const options = await env.start(scenario().on('one').thenAnswer('First.').build());
    const session = turnByTurn(env, options);
    await session.turn('[[one]] hello');
    const summary = await session.q.getContextUsage();
    const full = await session.q.getContextUsage({ detail: 'full' });
    const observed = await session.finish();
    return { ...observed, facts: { summary: shapeOf(summary), full: shapeOf(full) } };
  },
};

/** setMcpServers() between turns: a process server and an in-process one; the next turn calls both. */
export const setMcpServers: TwinScenario = {
  name: 'setMcpServers',
  async run(env) {
    const script = scenario()
      .on('one')
      .thenAnswer('No servers yet.')
      .on('two')
      // One tool after the other: two calls in one message finish in either order, and the messages
      // of the two SDKs' runs would then differ by timing alone.
      .callTool('mcp__resources__ping', {})
      .callTool('mcp__inproc__echo', { text: 'hello' })
      .thenAnswer((ctx) => `tools said: ${ctx.toolResults.map((r) => r.text).join(' / ')}`)
      .build();
    const options = await env.start(script);
    const calls: unknown[] = [];
    const inproc = env.sdk.createSdkMcpServer({
      name: 'inproc',
      tools: [
        env.sdk.tool('echo', 'Echoes the text', { text: z.string() }, (args) => {
          calls.push(args);
          return Promise.resolve({ content: [{ type: 'text', text: `echo: ${args.text}` }] });
        }),
      ],
    });
    const session = turnByTurn(env, {
      ...options,
      allowedTools: ['mcp__resources__ping', 'mcp__inproc__echo'],
    });
    await session.turn('[[one]] hello');
    const added = await session.q.setMcpServers({
      resources: { type: 'stdio', command: process.execPath, args: [MCP_FIXTURE] },
      inproc,
    });
    const status = await session.q.mcpServerStatus();
    await session.turn('[[two]] use the tools');
    const removed = await session.q.setMcpServers({});
    const observed = await session.finish();
    return {
      ...observed,
      calls,
      facts: {
        added: { ...added, added: [...added.added].sort(), removed: [...added.removed].sort() },
        status: status.map((s) => [s.name, s.status]).sort(),
        removed: { ...removed, removed: [...removed.removed].sort() },
      },
    };
  },
};
