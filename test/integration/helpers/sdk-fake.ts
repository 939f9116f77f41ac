// query() against the fake CLI: Options that point at it in one mode, the pids it announces on stderr,
// the report it writes when it exits, and the warnings Warden raised. Everything here waits on events the
// fake or Warden produce, never on the clock.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';

import type { Options, WardenError } from '../../../src/index.js';
import { fakeCliPath, type FakeCliMode } from '../../../src/testing/fake-cli.js';

// Wire frames are loosely typed on purpose: tests reach into whatever was written.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Frame = Record<string, any>;

/** What the fake writes to FAKE_CLI_REPORT when it exits (see the header of test/fixtures/fake-cli.mjs). */
export interface FakeReport {
  mode: string;
  pid: number;
  exitCode: number;
  linesWritten: number;
  /** How many lines the fake had written when its stdin closed; null if it never closed. */
  stdinClosedAfterLines: number | null;
  /** Every line the host wrote, with how many lines the fake had written by then. */
  received: { afterLines: number; frame: Frame }[];
}

export interface FakeRun {
  /** For query(): the fake CLI, its environment, onWarning and stderr. Spread your own on top. */
  readonly options: Options;
  /** The environment the fake runs with (for hosts other than Warden). */
  readonly env: Record<string, string>;
  readonly warnings: WardenError[];
  /** Feed the fake's stderr here (already in `options`); it parses the pids and progress lines. */
  readonly onStderr: (text: string) => void;
  /** The fake's pid, from its "fake-cli: pid" line. */
  readonly pid: Promise<number>;
  /** The grandchild's pid (orphan-after-result). */
  readonly grandchildPid: Promise<number>;
  stderr(): string;
  /** The highest n of "fake-cli: wrote <n>" so far (message-flood). */
  wrote(): number;
  /** Reads the report; only valid once the fake has exited. */
  report(): FakeReport;
}

function announced(): { promise: Promise<number>; resolve: (pid: number) => void } {
  let resolve!: (pid: number) => void;
  const promise = new Promise<number>((r) => (resolve = r));
  return { promise, resolve };
}

/** The environment that runs the fake in `mode`: PATH (with this Node first, for hosts that run `node`). */
export function fakeEnv(mode: FakeCliMode, extra: Record<string, string> = {}): Record<string, string> {
  const path = [dirname(process.execPath), process.env['PATH'] ?? ''].join(':');
  return { PATH: path, FAKE_CLI_MODE: mode, ...extra };
}

export function fakeRun(t: TestContext, mode: FakeCliMode, extra: Record<string, string> = {}): FakeRun {
  const dir = mkdtempSync(join(tmpdir(), 'warden-fake-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const reportPath = join(dir, 'report.json');
  const env = fakeEnv(mode, { FAKE_CLI_REPORT: reportPath, ...extra });
  const warnings: WardenError[] = [];
  const pid = announced();
  const grandchild = announced();
  let text = '';
  let parsed = 0;
  let wrote = 0;
  const onStderr = (chunk: string): void => {
    text += chunk;
    const end = text.lastIndexOf('\n') + 1;
    for (const line of text.slice(parsed, end).split('\n')) {
      const match = /^fake-cli: (pid|grandchild pid|wrote) (\d+)$/.exec(line);
      if (match === null) continue;
      const value = Number(match[2]);
      if (match[1] === 'pid') pid.resolve(value);
      else if (match[1] === 'grandchild pid') grandchild.resolve(value);
      else wrote = Math.max(wrote, value);
    }
    parsed = end;
  };
  return {
    options: {
      pathToClaudeCodeExecutable: fakeCliPath(),
      env,
      onWarning: (warning) => warnings.push(warning),
      stderr: onStderr,
    },
    env,
    warnings,
    onStderr,
    pid: pid.promise,
    grandchildPid: grandchild.promise,
    stderr: () => text,
    wrote: () => wrote,
    report: () => JSON.parse(readFileSync(reportPath, 'utf8')) as FakeReport,
  };
}

export interface Collected {
  messages: Frame[];
  error: unknown;
}

/** Iterates to the end; `each` may pace the consumer. The error the iteration threw, if any, is returned. */
export async function collect(
  q: AsyncIterable<unknown>,
  each?: (message: Frame, index: number) => Promise<void> | void,
): Promise<Collected> {
  const messages: Frame[] = [];
  try {
    for await (const message of q) {
      messages.push(message as Frame);
      await each?.(message as Frame, messages.length - 1);
    }
  } catch (error) {
    return { messages, error };
  }
  return { messages, error: undefined };
}

/** The seq numbers the fake gave these messages: strictly increasing means in order, none repeated. */
export function seqs(messages: readonly Frame[]): number[] {
  return messages.map((message) => message.seq as number);
}

/** Asserts `value` is an instance of `type` with the given code, and narrows it. */
export function assertError<T extends WardenError>(
  value: unknown,
  type: abstract new (...args: never[]) => T,
  code: string,
): asserts value is T {
  assert.ok(value instanceof type, `expected ${type.name}, got ${String(value)}`);
  assert.equal(value.code, code);
}

/** Messages of one type (and subtype). */
export function ofType(messages: readonly Frame[], type: string, subtype?: string): Frame[] {
  return messages.filter((m) => m.type === type && (subtype === undefined || m.subtype === subtype));
}

/** The one fake_cli_report message the protocol modes emit. */
export function fakeReportMessage(messages: readonly Frame[]): Frame {
  const reports = ofType(messages, 'system', 'fake_cli_report');
  assert.equal(reports.length, 1, 'one fake_cli_report message');
  return reports[0]!;
}
