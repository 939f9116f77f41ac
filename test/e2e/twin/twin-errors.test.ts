// Twin suite, error wording: applications match on the official SDK's error texts, so Warden keeps them
// word for word while its errors carry their own classes and codes. Tiny stand-in CLIs (shell scripts)
// fail on demand: exit 3 with a line on stderr, die by SIGKILL, never answer while a request is pending,
// exit 0 on a request without answering it, or let go of their input (writes then fail with EPIPE) and
// exit 3 a moment later.
import type { Options } from '@anthropic-ai/claude-agent-sdk';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { ControlChannelClosedError, ProcessExitError, WardenError } from '../../../src/index.js';
import { createScratch, type Scratch } from '../../../src/testing/index.js';
import { OFFICIAL, WARDEN, type AgentSdk } from './sdks.js';

const SCRIPTS = {
  exit3: 'echo "fatal: something broke" >&2\nexit 3',
  killed: 'kill -KILL $$',
  silent: 'exec cat > /dev/null',
  exitOnInterrupt: `while read -r line; do case "$line" in *'"interrupt"'*) exit 0;; esac; done`,
  inputGone: 'read -r line\nexec 0<&-\necho "fatal: gone" >&2\nsleep 1\nexit 3',
} as const;

let scratch: Scratch;
/** Warden reports the writes that hit the dead CLI's stdin (EPIPE) as warnings; keep them off stderr. */
const wardenWarnings: WardenError[] = [];

function optionsFor(sdk: AgentSdk, executable: string, extra: Options = {}): Options {
  const options: Options = {
    pathToClaudeCodeExecutable: executable,
    env: { PATH: process.env.PATH },
    ...extra,
  };
  if (sdk === WARDEN) Object.assign(options, { onWarning: (w: WardenError) => wardenWarnings.push(w) });
  return options;
}

function cli(name: keyof typeof SCRIPTS): string {
  const path = join(scratch.dir, `${name}.sh`);
  writeFileSync(path, `#!/bin/sh\n${SCRIPTS[name]}\n`);
  chmodSync(path, 0o755);
  return path;
}

async function iterationError(sdk: AgentSdk, executable: string): Promise<unknown> {
  try {
    for await (const _ of sdk.query({ prompt: 'hi', options: optionsFor(sdk, executable) })) {
      // nothing arrives
    }
  } catch (error) {
    return error;
  }
  return undefined;
}

/** A request pending when the caller closes the query. */
async function pendingOnClose(sdk: AgentSdk, executable: string): Promise<unknown> {
  const q = sdk.query({ prompt: 'hi', options: optionsFor(sdk, executable) });
  const pending = q.supportedModels().then(
    () => undefined,
    (error: unknown) => error,
  );
  q.close();
  return pending;
}

/** A request pending when the CLI exits 0 without answering it. */
async function pendingOnExit(sdk: AgentSdk, executable: string): Promise<unknown> {
  const q = sdk.query({ prompt: 'hi', options: optionsFor(sdk, executable) });
  const iteration = drain(q);
  const error = await q.interrupt().then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  await iteration;
  return error;
}

/** A request written once the CLI let go of its input (the write fails), before its exit is seen. */
async function writtenToGoneInput(sdk: AgentSdk, executable: string): Promise<unknown> {
  let inputGone!: () => void;
  const seen = new Promise<void>((resolve) => (inputGone = resolve));
  const q = sdk.query({ prompt: 'hi', options: optionsFor(sdk, executable, { stderr: () => inputGone() }) });
  const iteration = drain(q);
  await seen;
  const error = await q.interrupt().then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  await iteration;
  return error;
}

async function drain(q: AsyncIterable<unknown>): Promise<unknown> {
  try {
    for await (const _ of q) {
      // nothing arrives
    }
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('twin: error wording', { timeout: 60_000 }, () => {
  before(() => (scratch = createScratch('warden-twin-errors-')));
  after(() => scratch.cleanup());

  it('a non-zero exit: "Claude Code process exited with code N. stderr: …" on both', async () => {
    const official = await iterationError(OFFICIAL, cli('exit3'));
    const warden = await iterationError(WARDEN, cli('exit3'));
    assert.ok(official instanceof Error && official.constructor === Error);
    assert.equal(official.message, 'Claude Code process exited with code 3. stderr: fatal: something broke');
    assert.ok(warden instanceof ProcessExitError);
    assert.equal(warden.code, 'PROCESS_EXITED');
    assert.equal(warden.exitCode, 3);
    assert.equal(warden.message, official.message);
  });

  it('death by a signal: "Claude Code process terminated by signal SIGKILL" on both', async () => {
    const official = await iterationError(OFFICIAL, cli('killed'));
    const warden = await iterationError(WARDEN, cli('killed'));
    assert.ok(official instanceof Error);
    assert.equal(official.message, 'Claude Code process terminated by signal SIGKILL');
    assert.ok(warden instanceof ProcessExitError);
    assert.equal(warden.signal, 'SIGKILL');
    assert.equal(warden.message, official.message);
  });

  it('a request pending at close: "Query closed before response received" on both; Warden says why in reason', async () => {
    const official = await pendingOnClose(OFFICIAL, cli('silent'));
    const warden = await pendingOnClose(WARDEN, cli('silent'));
    assert.ok(official instanceof Error);
    assert.equal(official.message, 'Query closed before response received');
    assert.ok(warden instanceof ControlChannelClosedError);
    assert.ok(WardenError.isWardenError(warden));
    assert.equal(warden.code, 'CONTROL_CHANNEL_CLOSED');
    assert.equal(warden.message, official.message);
    assert.equal(warden.reason, 'the query was closed');
  });

  it('a request pending when the CLI exits 0: "Query closed before response received" on both', async () => {
    const official = await pendingOnExit(OFFICIAL, cli('exitOnInterrupt'));
    const warden = await pendingOnExit(WARDEN, cli('exitOnInterrupt'));
    assert.ok(official instanceof Error);
    assert.equal(official.message, 'Query closed before response received');
    assert.ok(warden instanceof ControlChannelClosedError);
    assert.equal(warden.message, official.message);
    assert.equal(warden.reason, 'the CLI exited');
  });

  it('a request written to a CLI whose input is gone: the exit error from Warden, never TransportClosedError', async () => {
    const exited = 'Claude Code process exited with code 3. stderr: fatal: gone';
    const official = await writtenToGoneInput(OFFICIAL, cli('inputGone'));
    const warden = await writtenToGoneInput(WARDEN, cli('inputGone'));
    assert.ok(official instanceof Error);
    // The official SDK settles with the exit too, unless one of its writes already met the closed pipe
    // (a loaded machine lets the CLI close its input before the prompt is written): then it throws at once.
    assert.ok(
      [exited, 'ProcessTransport is not ready for writing'].includes(official.message),
      official.message,
    );
    assert.ok(warden instanceof ProcessExitError, String(warden));
    assert.equal(warden.message, exited);
  });

  it('what Warden did not throw it reported: writes to the dead CLI, as TRANSPORT_CLOSED warnings', () => {
    assert.ok(wardenWarnings.every((warning) => warning.code === 'TRANSPORT_CLOSED'));
  });
});
