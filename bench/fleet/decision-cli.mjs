#!/usr/bin/env node
// The fleet-decision-latency benchmark's stand-in for the Claude Code CLI: a process of its own, spawned by
// the supervisor like the real CLI. It answers `initialize`, waits for the first user message, then raises
// BENCH_COUNT can_use_tool requests one after another, each once the previous one's answer has arrived.
// For every control_response it reads from stdin it takes the wall clock first, then appends a line
// {"toolUseId", "receivedAt", "behavior"} to the file BENCH_RECEIPTS — the moment the answer reached this
// process, on the clock every process of the machine shares (performance.timeOrigin + now()). Then a
// `result`; it exits 0 when stdin ends.
//
// Environment: BENCH_COUNT (requests), BENCH_RECEIPTS (the file receipts are appended to).

import { once } from 'node:events';
import { appendFileSync } from 'node:fs';

const count = Number(process.env.BENCH_COUNT ?? 100);
const receipts = process.env.BENCH_RECEIPTS ?? '';
if (receipts === '') throw new Error('decision-cli: BENCH_RECEIPTS is not set');
const SESSION = 'bench-session';

const wallClock = () => performance.timeOrigin + performance.now();

async function emit(frame) {
  if (!process.stdout.write(`${JSON.stringify(frame)}\n`)) await once(process.stdout, 'drain');
}

const replyWaiters = new Map();
let turnStarted = false;
let stdinEnded = false;
const stdinEnd = once(process.stdin, 'end').then(() => (stdinEnded = true));

function onLine(line, receivedAt) {
  const frame = JSON.parse(line);
  if (frame.type === 'control_request' && frame.request?.subtype === 'initialize') {
    void emit({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: frame.request_id,
        response: {
          commands: [],
          agents: [],
          output_style: 'default',
          available_output_styles: [],
          models: [],
        },
      },
    });
  } else if (frame.type === 'control_response') {
    const id = frame.response?.request_id;
    replyWaiters.get(id)?.({ frame, receivedAt });
    replyWaiters.delete(id);
  } else if (frame.type === 'user' && !turnStarted) {
    turnStarted = true;
    play().catch((error) => {
      process.stderr.write(`decision-cli: ${error.stack ?? error}\n`);
      process.exit(70);
    });
  }
}

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  // One clock reading per read from stdin: every line in it arrived then.
  const receivedAt = wallClock();
  pending += chunk;
  for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    if (line.trim() !== '') onLine(line, receivedAt);
  }
});
process.stdout.on('error', () => process.exit(141));

async function play() {
  await emit({
    type: 'system',
    subtype: 'init',
    session_id: SESSION,
    uuid: 'init',
    cwd: process.cwd(),
    tools: [],
    mcp_servers: [],
    model: 'bench',
    permissionMode: 'default',
    slash_commands: [],
    apiKeySource: 'none',
    claude_code_version: '0.0.0-bench',
    output_style: 'default',
  });
  for (let i = 0; i < count; i += 1) {
    const requestId = `lat-${i}`;
    const toolUseId = `toolu_lat_${i}`;
    const reply = new Promise((resolve) => replyWaiters.set(requestId, resolve));
    await emit({
      type: 'control_request',
      request_id: requestId,
      request: {
        subtype: 'can_use_tool',
        tool_name: 'Bash',
        input: { command: `touch file-${i}`, description: 'A command the policy asks about' },
        tool_use_id: toolUseId,
        permission_suggestions: [],
      },
    });
    const { frame, receivedAt } = await reply;
    const behavior = frame.response?.response?.behavior ?? frame.response?.subtype ?? 'none';
    appendFileSync(receipts, `${JSON.stringify({ toolUseId, receivedAt, behavior })}\n`);
  }
  await emit({
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 0,
    duration_api_ms: 0,
    num_turns: 1,
    result: 'ok',
    stop_reason: 'end_turn',
    total_cost_usd: 0,
    usage: { input_tokens: 1, output_tokens: 1 },
    modelUsage: {},
    permission_denials: [],
    session_id: SESSION,
    uuid: 'result',
  });
  if (!stdinEnded) await stdinEnd;
  process.exit(0);
}
