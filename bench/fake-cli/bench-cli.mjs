#!/usr/bin/env node
// The benchmarks' stand-in for the Claude Code CLI. Both hosts (Warden and the official SDK) run this same
// script, so whatever it costs is the same on both sides. It speaks just enough of the protocol: it
// answers `initialize`, waits for the first user message, then plays the mode below.
//
// Environment:
//   BENCH_MODE        orphan | permissions | throughput
//   BENCH_EXIT_CODE   orphan: the exit code                                                    [0]
//   BENCH_ORPHAN_MS   orphan: how long the grandchild holding stdout lives                  [2000]
//   BENCH_COUNT       permissions: requests; throughput: messages                           [1000]
//   BENCH_BYTES       throughput: approximate size of one message line                      [1024]
//   BENCH_RATE        throughput: messages per second, paced block by block; 0 = flat out      [0]
//
// Modes:
//   orphan       Writes system/init and one assistant message, starts a grandchild (`sleep`) that inherits
//                stdout and stderr, then exits with BENCH_EXIT_CODE: after a `result` and the end of stdin
//                for 0 (a clean end), at once for anything else (a crash mid-turn). Its very last line is
//                {type:'system', subtype:'bench_exit', exit_at, orphan_pid}: exit_at is the wall clock (ms,
//                sub-ms precision) taken just before exiting, so a host can time from the exit itself.
//   permissions  Sends BENCH_COUNT can_use_tool requests one after another, each after the previous reply, and
//                times each round trip here, from writing the request line to reading the reply line. The
//                `result` carries them as bench_latencies_ms. Exits 0 when stdin ends.
//   throughput   Writes system/init, then BENCH_COUNT assistant messages of about BENCH_BYTES bytes each as fast
//                as the pipe takes them (or at BENCH_RATE), then a `result`. Exits 0 when stdin ends.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const mode = process.env.BENCH_MODE ?? '';
const count = Number(process.env.BENCH_COUNT ?? 1000);
const SESSION = 'bench-session';

/** Wall clock with sub-millisecond precision, comparable across processes on one machine. */
const wallClock = () => performance.timeOrigin + performance.now();

// ------------------------------------------------------------------------------------------- output

async function writeLine(line) {
  if (!process.stdout.write(line)) await once(process.stdout, 'drain');
}

const emit = (frame) => writeLine(`${JSON.stringify(frame)}\n`);

/** Written with a blocking write so that the line is in the pipe before process.exit(). */
function emitAndExit(frame, code) {
  const bytes = Buffer.from(`${JSON.stringify(frame)}\n`);
  for (let offset = 0; offset < bytes.length;) {
    try {
      offset += writeSync(1, bytes, offset);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
    }
  }
  process.exit(code);
}

const systemInit = () => ({
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

const assistant = (text) => ({
  type: 'assistant',
  session_id: SESSION,
  uuid: 'assistant',
  parent_tool_use_id: null,
  message: {
    id: 'msg_bench',
    type: 'message',
    role: 'assistant',
    model: 'bench',
    content: [{ type: 'text', text }],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  },
});

const result = (extra = {}) => ({
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
  ...extra,
});

// -------------------------------------------------------------------------------------------- input

const replyWaiters = new Map();
let turnStarted = false;
let stdinEnded = false;
const stdinEnd = once(process.stdin, 'end').then(() => (stdinEnded = true));

function onLine(line) {
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
    replyWaiters.get(id)?.(frame);
    replyWaiters.delete(id);
  } else if (frame.type === 'user' && !turnStarted) {
    turnStarted = true;
    const play = MODES[mode];
    if (play === undefined) throw new Error(`bench-cli: unknown BENCH_MODE ${JSON.stringify(mode)}`);
    play().catch((error) => {
      process.stderr.write(`bench-cli: ${error.stack ?? error}\n`);
      process.exit(70);
    });
  }
}

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    if (line.trim() !== '') onLine(line);
  }
});
// A host that closes our stdout has stopped listening: leave quietly.
process.stdout.on('error', () => process.exit(141));

// -------------------------------------------------------------------------------------------- modes

async function orphan() {
  const exitCode = Number(process.env.BENCH_EXIT_CODE ?? 0);
  const lifetimeSeconds = Number(process.env.BENCH_ORPHAN_MS ?? 2000) / 1000;
  await emit(systemInit());
  await emit(assistant('working'));
  if (exitCode === 0) {
    await emit(result());
    if (!stdinEnded) await stdinEnd;
  }
  // Started last, so that the official SDK's wait is the orphan's whole lifetime.
  const grandchild = spawn('sleep', [String(lifetimeSeconds)], { stdio: ['ignore', 'inherit', 'inherit'] });
  emitAndExit(
    { type: 'system', subtype: 'bench_exit', exit_at: wallClock(), orphan_pid: grandchild.pid },
    exitCode,
  );
}

async function permissions() {
  await emit(systemInit());
  const latencies = [];
  for (let i = 0; i < count; i += 1) {
    const requestId = `bench-perm-${i}`;
    const reply = new Promise((resolve) => replyWaiters.set(requestId, resolve));
    const line = `${JSON.stringify({
      type: 'control_request',
      request_id: requestId,
      request: {
        subtype: 'can_use_tool',
        tool_name: 'Bash',
        input: { command: 'echo hi', description: 'Say hi' },
        tool_use_id: `toolu_bench_${i}`,
        permission_suggestions: [],
      },
    })}\n`;
    const sentAt = performance.now();
    await writeLine(line);
    const answer = await reply;
    latencies.push(Math.round((performance.now() - sentAt) * 1000) / 1000);
    if (answer.response?.subtype !== 'success' || answer.response.response?.behavior !== 'allow')
      throw new Error(`request ${requestId} was not allowed: ${JSON.stringify(answer)}`);
  }
  await emit(result({ bench_latencies_ms: latencies }));
  if (!stdinEnded) await stdinEnd;
  process.exit(0);
}

async function throughput() {
  const bytes = Number(process.env.BENCH_BYTES ?? 1024);
  const envelope = JSON.stringify(assistant('')).length + 1;
  const line = `${JSON.stringify(assistant('x'.repeat(Math.max(0, bytes - envelope))))}\n`;
  // Small lines go out in blocks of about 64 KiB, so that this process spends next to nothing per message.
  const perBlock = Math.max(1, Math.floor(65536 / line.length));
  const block = Buffer.from(line.repeat(perBlock));
  const single = Buffer.from(line);
  const rate = Number(process.env.BENCH_RATE ?? 0);
  await emit(systemInit());
  const began = performance.now();
  let left = count;
  for (; left >= perBlock; left -= perBlock) {
    if (!process.stdout.write(block)) await once(process.stdout, 'drain');
    // Paced: the next block is due when the messages written so far are at the rate.
    if (rate > 0) {
      const ahead = began + ((count - left + perBlock) / rate) * 1000 - performance.now();
      if (ahead > 0) await sleep(ahead);
    }
  }
  for (; left > 0; left -= 1) {
    if (!process.stdout.write(single)) await once(process.stdout, 'drain');
  }
  await emit(result({ bench_messages: count, bench_line_bytes: single.length }));
  if (!stdinEnded) await stdinEnd;
  process.exit(0);
}

const MODES = { orphan, permissions, throughput };
