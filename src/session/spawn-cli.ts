// Starting the CLI for a query: find the executable, build argv and env, spawn the transport (or hand the
// launch to the caller's cliTransport, which may start the CLI otherwise or join a running one).
import type { WardenError } from '../protocol/errors.js';
import { spawnTransport } from '../transport/child-transport.js';
import type { CliLaunch, CliTransport } from '../transport/cli-transport.js';
import { diagnosticToError } from '../transport/diagnostics.js';
import { buildCliArgs } from './cli-args.js';
import { buildCliEnv } from './cli-env.js';
import type { McpServerConfig, Options } from './options.js';
import { resolveClaudeExecutable } from './resolve-cli.js';
import type { McpSdkServerConfigWithInstance } from './sdk-mcp-server.js';

const SCRIPT_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.tsx', '.jsx'];

export async function spawnCli(
  options: Options,
  warn: (warning: WardenError) => void,
): Promise<CliTransport> {
  const env = buildCliEnv(options);
  const explicit = options.pathToClaudeCodeExecutable;
  // An explicit path is spawned as given: if it is wrong, the spawn itself says so (SpawnError, errno).
  const executable = explicit ?? resolveClaudeExecutable({ env });
  const flags = buildCliArgs(options);
  // A CLI shipped as a script runs under this Node, with executableArgs before the script.
  const isScript = SCRIPT_EXTENSIONS.some((ext) => executable.endsWith(ext));
  const command = isScript ? process.execPath : executable;
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
  return options.cliTransport === undefined ? spawnTransport(launch) : options.cliTransport(launch);
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
