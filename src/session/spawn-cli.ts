// Starting the CLI for a query: find the executable, build argv and env, spawn the transport — or hand
// the command line to the caller's spawnClaudeCodeProcess, or the launch to its cliTransport (which may
// start the CLI otherwise or join a running one). With a session store, a resume is first materialized
// from the store, and the transcript the CLI writes is mirrored to it.
import type { WardenError } from '../protocol/errors.js';
import { spawnTransport } from '../transport/child-transport.js';
import type { CliLaunch, CliTransport } from '../transport/cli-transport.js';
import { diagnosticToError } from '../transport/diagnostics.js';
import { SpawnedTransport } from '../transport/spawned-transport.js';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { buildCliArgs } from './cli-args.js';
import { readsMcpServersFromInitialize } from './cli-capabilities.js';
import { buildCliEnv } from './cli-env.js';
import type { LaunchFacts } from './option-delivery.js';
import type { McpServerConfig, Options } from './options.js';
import { resolveClaudeExecutable } from './resolve-cli.js';
import type { McpSdkServerConfigWithInstance } from './sdk-mcp-server.js';
import { removeResumeDir, resumeFromStore } from './store-resume.js';
import { mirroringTransport, TranscriptMirror } from './transcript-mirror.js';

/** How the official SDK recognises a CLI shipped as a script, run under a JavaScript runtime. */
const SCRIPT_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.tsx', '.jsx'];

export interface SpawnedCli {
  readonly transport: CliTransport;
  /** What the command line was built from; the `initialize` request must be built from the same. */
  readonly facts: LaunchFacts;
}

export async function spawnCli(options: Options, warn: (warning: WardenError) => void): Promise<SpawnedCli> {
  const env = buildCliEnv(options);
  const resumed = await resumeFromStore(options, env);
  const effective = resumed === undefined ? options : { ...options, resume: resumed.sessionId };
  if (resumed !== undefined) env.CLAUDE_CONFIG_DIR = resumed.configDir;
  const explicit = options.pathToClaudeCodeExecutable;
  // An explicit path is spawned as given: if it is wrong, the spawn itself says so (SpawnError, errno).
  const executable = explicit ?? resolveClaudeExecutable({ env, onWarning: warn });
  const bundledCli = explicit === undefined && options.spawnClaudeCodeProcess === undefined;
  const facts: LaunchFacts = { bundledCli, ...mcpDeliveryFacts(options, executable) };
  const flags = buildCliArgs(effective, facts);
  // A CLI shipped as a script runs under a JavaScript runtime, with executableArgs before the script.
  const isScript = SCRIPT_EXTENSIONS.some((ext) => executable.endsWith(ext));
  const runtime = options.executable ?? (options.spawnClaudeCodeProcess ? 'node' : process.execPath);
  const command = isScript ? runtime : executable;
  const args = isScript
    ? insertAfterExecutableArgs(flags, options.executableArgs?.length ?? 0, executable)
    : flags;
  const launch: CliLaunch = {
    command,
    args,
    env,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes }),
    ...(options.stderr === undefined ? {} : { onStderr: options.stderr }),
    onDiagnostic: (diagnostic) => warn(diagnosticToError(diagnostic)),
  };
  let transport: CliTransport;
  try {
    transport = await startTransport(options, launch);
  } catch (error) {
    if (resumed !== undefined) await removeResumeDir(resumed.configDir);
    throw error;
  }
  if (resumed !== undefined) void transport.exited.then(() => removeResumeDir(resumed.configDir));
  if (options.sessionStore === undefined) return { transport, facts };
  // Where the CLI writes: its CLAUDE_CONFIG_DIR, else the .claude of the HOME it is given.
  const configDir = env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
  const mirror = new TranscriptMirror({
    store: options.sessionStore,
    projectsDir: join(configDir, 'projects'),
    ...(options.sessionStoreFlush === undefined ? {} : { flush: options.sessionStoreFlush }),
    onWarning: (text) => process.emitWarning(text, { code: 'WARDEN_SESSION_STORE' }),
  });
  return { transport: mirroringTransport(transport, mirror), facts };
}

/** The CLI's version on disk matters only when MCP servers would go by the default delivery. */
function mcpDeliveryFacts(options: Options, executable: string): LaunchFacts {
  if (options.mcpServersDelivery !== undefined) return {};
  const processServers = Object.values(options.mcpServers ?? {}).some((config) => config.type !== 'sdk');
  return processServers ? { readsMcpServersFromInitialize: readsMcpServersFromInitialize(executable) } : {};
}

function startTransport(options: Options, launch: CliLaunch): Promise<CliTransport> {
  if (options.cliTransport !== undefined) return options.cliTransport(launch);
  const spawner = options.spawnClaudeCodeProcess;
  if (spawner === undefined) return spawnTransport(launch);
  const abort = new AbortController();
  const child = spawner({
    command: launch.command,
    args: [...launch.args],
    ...(launch.cwd === undefined ? {} : { cwd: launch.cwd }),
    env: launch.env,
    signal: abort.signal,
  });
  if (typeof child?.stdin?.write !== 'function' || typeof child.stdout?.on !== 'function')
    return Promise.reject(
      new TypeError('spawnClaudeCodeProcess must return a process with stdin and stdout'),
    );
  return Promise.resolve(
    new SpawnedTransport(child, {
      abort,
      onDiagnostic: launch.onDiagnostic,
      ...(launch.maxFrameBytes === undefined ? {} : { maxFrameBytes: launch.maxFrameBytes }),
    }),
  );
}

function insertAfterExecutableArgs(flags: string[], count: number, script: string): string[] {
  return [...flags.slice(0, count), script, ...flags.slice(count)];
}

export function sdkMcpServersOf(
  servers: Record<string, McpServerConfig> | undefined,
): Record<string, McpSdkServerConfigWithInstance> {
  const result: Record<string, McpSdkServerConfigWithInstance> = {};
  for (const [name, config] of Object.entries(servers ?? {})) {
    if (config.type === 'sdk') result[name] = config;
  }
  return result;
}
