// Twin scenarios for the options the CLI can exercise offline: structured output, thinking and effort as
// the model request carries them, a session store round trip with a resume from the store, and a CLI
// started by the application's own spawner.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { projectDirName } from '../../../../src/sessions/paths.js';
import { scenario } from '../../../../src/testing/index.js';
import { drain, type TwinScenario } from '../harness.js';

export const structuredOutput: TwinScenario = {
  name: 'structured output',
  async run(env) {
    const script = scenario()
      .on('first')
      .callTool('StructuredOutput', { answer: 'forty-two', confidence: 3 })
      .thenAnswer('Done.')
      .build();
    const options = await env.start(script);
    const schema = {
      type: 'object',
      properties: { answer: { type: 'string' }, confidence: { type: 'number' } },
      required: ['answer', 'confidence'],
    };
    const observed = await drain(
      env.sdk.query({
        prompt: '[[first]] answer as JSON',
        options: { ...options, outputFormat: { type: 'json_schema', schema } },
      }),
    );
    const result = observed.messages.findLast((m) => m.type === 'result') as
      { structured_output?: unknown } | undefined;
    return { ...observed, facts: { structured: result?.structured_output } };
  },
};

export const thinkingAndEffort: TwinScenario = {
  name: 'thinking and effort',
  async run(env) {
    const script = scenario()
      .on('first')
      .thenAnswer(
        (ctx) =>
          `thinking=${JSON.stringify(ctx.body.thinking ?? null)} output=${JSON.stringify(ctx.body.output_config ?? null)}`,
      )
      .build();
    const options = await env.start(script);
    const observed = await drain(
      env.sdk.query({
        prompt: '[[first]] think',
        options: { ...options, thinking: { type: 'enabled', budgetTokens: 2048 }, effort: 'high' },
      }),
    );
    const result = observed.messages.findLast((m) => m.type === 'result') as { result?: string } | undefined;
    return { ...observed, facts: { modelSaw: result?.result } };
  },
};

export const sessionStoreResume: TwinScenario = {
  name: 'session store round trip',
  async run(env) {
    const script = scenario()
      .on('first')
      .thenAnswer('Remembered.')
      .on('second')
      .thenAnswer((ctx) =>
        ctx.firstUserText.includes('remember 42') ? 'Resumed with history.' : 'No history.',
      )
      .build();
    // The official SDK finds the transcripts under CLAUDE_CONFIG_DIR (or its own HOME): name it.
    const options = await env.start(script, { CLAUDE_CONFIG_DIR: env.world.configDir });
    const store = new env.sdk.InMemorySessionStore();
    const first = await drain(
      env.sdk.query({ prompt: '[[first]] remember 42', options: { ...options, sessionStore: store } }),
    );
    const sessionId = first.messages.findLast((m) => m.type === 'result')?.session_id;
    if (sessionId === undefined) return first;
    const projectKey = projectDirName(options.cwd!);
    const stored = store.getEntries({ projectKey, sessionId });
    // The local transcript goes: the resume can only come from the store.
    rmSync(join(env.world.configDir, 'projects', projectKey, `${sessionId}.jsonl`), { force: true });
    const second = await drain(
      env.sdk.query({
        prompt: '[[second]] what was it?',
        options: { ...options, sessionStore: store, resume: sessionId },
      }),
    );
    return {
      messages: [...first.messages, ...second.messages],
      error: first.error ?? second.error,
      facts: {
        storedTypes: [...new Set(stored.map((entry) => entry.type))].sort(),
        storedSomething: stored.length > 0,
        sameSession: second.messages.findLast((m) => m.type === 'result')?.session_id === sessionId,
      },
    };
  },
};

export const ownSpawner: TwinScenario = {
  name: 'spawnClaudeCodeProcess',
  async run(env) {
    const script = scenario().on('first').thenAnswer('Spawned by the application.').build();
    const options = await env.start(script);
    let spawned = 0;
    const observed = await drain(
      env.sdk.query({
        prompt: '[[first]] hello',
        options: {
          ...options,
          spawnClaudeCodeProcess: ({ command, args, cwd, env: childEnv, signal }) => {
            spawned += 1;
            return spawn(command, args, {
              cwd,
              env: childEnv,
              signal,
              stdio: ['pipe', 'pipe', 'ignore'],
            });
          },
        },
      }),
    );
    return { ...observed, facts: { spawned } };
  },
};
