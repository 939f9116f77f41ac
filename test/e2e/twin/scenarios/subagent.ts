// The background subagent scenario, written against the official SDK's API: the root turn launches a
// subagent and ends with a result; only after that result was delivered does the subagent make two tool
// calls that need permission. Run as is, with state events for the application, and with a CLI that
// sends no session-state frames (as older CLIs and custom spawners do).
import type { CanUseTool } from '@anthropic-ai/claude-agent-sdk';

import {
  BACKGROUND_AGENT_PROMPT,
  backgroundSubagentScenario,
  writeCliWithoutStateEvents,
} from '../../../../src/testing/index.js';
import { drain, type TwinScenario } from '../harness.js';

type Variant = 'default' | 'state events for the application' | 'CLI without state events';

function backgroundSubagent(variant: Variant): TwinScenario {
  return {
    name: `background subagent (${variant})`,
    async run(env) {
      let rootResultSeen!: () => void;
      const rootResult = new Promise<void>((resolve) => (rootResultSeen = resolve));
      let rootDone = false;
      const extraEnv =
        variant === 'state events for the application' ? { CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: '1' } : {};
      const options = await env.start(backgroundSubagentScenario({ askAfter: rootResult }), extraEnv);
      if (variant === 'CLI without state events')
        options.pathToClaudeCodeExecutable = writeCliWithoutStateEvents(env.world.scratch.dir);
      const calls: unknown[] = [];
      const canUseTool: CanUseTool = (toolName, input, { agentID }) => {
        calls.push({ toolName, fromSubagent: agentID !== undefined, afterRootResult: rootDone });
        return Promise.resolve({ behavior: 'allow', updatedInput: input });
      };
      let results = 0;
      const observed = await drain(
        env.sdk.query({ prompt: BACKGROUND_AGENT_PROMPT, options: { ...options, canUseTool } }),
        (message) => {
          if (message.type !== 'result') return;
          results += 1;
          if (results === 1) {
            rootDone = true;
            rootResultSeen();
          }
        },
      );
      // Without this the subagent of an official run that lost its channel would wait forever.
      rootResultSeen();
      const subagentToolResults = env.mock.requests
        .filter((r) => r.kind === 'subagent' && (r.toolResults?.length ?? 0) > 0)
        .map((r) => ({ isError: r.toolResults![0]!.isError }));
      return { ...observed, calls, facts: { subagentToolResults } };
    },
  };
}

export const subagentDefault = backgroundSubagent('default');
export const subagentWithStateEvents = backgroundSubagent('state events for the application');
export const subagentWithoutStateEvents = backgroundSubagent('CLI without state events');
