// What a CLI can read, judged from its version as read on disk (installedClaudeVersion) before it starts.
// Only a version that is known and too old changes a default: an unknown one (a wrapper script, a path
// without a version) is treated as new, as the official SDK treats every CLI, and a CLI that turns out to
// be too old is then named by the answer to `initialize` or by its exit (mcp-delivery-check.ts).
import { realpathSync } from 'node:fs';
import { basename, dirname } from 'node:path';

import { installedClaudeVersion } from './resolve-cli.js';

/** The first Claude Code that reads MCP servers from the `initialize` request (the official SDK's figure). */
export const MCP_SERVERS_VIA_INITIALIZE_SINCE = '2.1.326';
/** The agent-sdk platform package of that release: its version is the SDK's (0.3.N ships CLI 2.1.N). */
const PLATFORM_PACKAGE_SINCE = '0.3.326';

/**
 * False when the executable at `path` is known to be older than `MCP_SERVERS_VIA_INITIALIZE_SINCE`, true
 * when known to be as new or newer, undefined when its version cannot be read from disk.
 */
export function readsMcpServersFromInitialize(path: string): boolean | undefined {
  const label = installedClaudeVersion(path);
  if (label === undefined) return undefined;
  // "0.3.328 (@anthropic-ai/claude-agent-sdk-linux-x64)" for a platform package, else the CLI's own.
  const platform = /^(\S+) \(.*claude-agent-sdk-.*\)$/.exec(label);
  // Otherwise only the native installer's versioned file or folder names the CLI's version: a version
  // read from some other package.json (a wrapper script's own package) says nothing about the CLI.
  if (platform === null && !namedByVersion(path, label)) return undefined;
  const version = platform?.[1] ?? label;
  const since = platform === null ? MCP_SERVERS_VIA_INITIALIZE_SINCE : PLATFORM_PACKAGE_SINCE;
  const order = compareVersions(version, since);
  return order === undefined ? undefined : order >= 0;
}

function namedByVersion(path: string, version: string): boolean {
  try {
    const real = realpathSync(path);
    return basename(real) === version || basename(dirname(real)) === version;
  } catch {
    return false;
  }
}

/** Compares two dotted numeric versions (a pre-release tag counts as its release); undefined if unparsable. */
export function compareVersions(a: string, b: string): number | undefined {
  const parse = (v: string): number[] | undefined => {
    const match = /^(\d+)\.(\d+)\.(\d+)/.exec(v);
    return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])];
  };
  const x = parse(a);
  const y = parse(b);
  if (x === undefined || y === undefined) return undefined;
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}
