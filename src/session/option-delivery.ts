// Which options travel on the command line and which in the `initialize` request: decided once, the same
// way the official SDK decides, and read by both builders.
import type { McpServerConfig, Options } from './options.js';

export interface Delivery {
  /** The servers the CLI runs or connects to itself (every one but the in-process servers). */
  processServers: Record<string, McpServerConfig>;
  mcpServersViaInitialize: boolean;
  pluginsViaInitialize: boolean;
  /** The CLI must wait for `initialize` before it loads the session (`--await-initialize`). */
  awaitInitialize: boolean;
}

export interface LaunchFacts {
  /** The CLI was found by Warden (not given as a path nor started by the caller's spawner). */
  bundledCli?: boolean;
  /**
   * Whether the CLI reads MCP servers from `initialize`, as far as its version on disk tells
   * (cli-capabilities.ts); undefined when unknown. Only a known `false` keeps unset delivery on argv.
   */
  readsMcpServersFromInitialize?: boolean | undefined;
}

function usesSdkUrl(options: Options): boolean {
  const extra = Object.keys(options.extraArgs ?? {});
  return (
    extra.some((key) => key === 'sdk-url' || key.startsWith('sdk-url=')) ||
    (options.executableArgs ?? []).some((arg) => /^--sdk-url(=|$)/.test(arg))
  );
}

export function deliveryOf(options: Options, facts: LaunchFacts = {}): Delivery {
  const processServers: Record<string, McpServerConfig> = {};
  for (const [name, config] of Object.entries(options.mcpServers ?? {})) {
    if (config.type !== 'sdk') processServers[name] = config;
  }
  const sdkUrl = usesSdkUrl(options);
  // The official default since 0.3.333 is 'initialize': secrets in a server's env stay off argv.
  const mcpDelivery =
    options.mcpServersDelivery ?? (facts.readsMcpServersFromInitialize === false ? 'argv' : 'initialize');
  const mcpServersViaInitialize =
    mcpDelivery === 'initialize' && Object.keys(processServers).length > 0 && !sdkUrl;
  const pluginsViaInitialize = options.pluginDelivery === 'initialize' && (options.plugins?.length ?? 0) > 0;
  // As the official SDK does with its own CLI: a resumed session reads initialize before it loads.
  const resumesOwnCli =
    (options.resume !== undefined || options.continue === true) && facts.bundledCli === true && !sdkUrl;
  return {
    processServers,
    mcpServersViaInitialize,
    pluginsViaInitialize,
    awaitInitialize: mcpServersViaInitialize || pluginsViaInitialize || resumesOwnCli,
  };
}
