// Connects the in-process MCP servers of one session to the CLI over the control protocol. The CLI talks
// to each server with CLI→SDK `mcp_message` control requests; the servers' own messages go back through
// `sendToCli`. The CLI runs the MCP handshake itself over mcp_message, so no manifest is pre-captured.

import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ControlChannelClosedError, ProtocolError } from '../protocol/errors.js';
import { McpBridgeTransport } from './mcp-transport.js';
import type { McpSdkServerConfig, McpSdkServerConfigWithInstance } from './sdk-mcp-server.js';

export interface McpBridgeOptions {
  /** Only the `type: 'sdk'` entries of `options.mcpServers`, keyed by the name the CLI will use. */
  servers: Record<string, McpSdkServerConfigWithInstance>;
  /**
   * Sends a server-originated JSON-RPC message (a notification, or a request to the client) to the CLI as
   * an SDK→CLI control_request `{subtype:'mcp_message', server_name, message}`.
   */
  sendToCli: (serverName: string, message: unknown) => Promise<void>;
}

/** Per-server settings for initialize's `sdkMcpServerConfigs`: the config minus type, name and instance. */
export type SdkMcpServerSettings = Omit<McpSdkServerConfig, 'type' | 'name'>;

// Only the envelope is checked here; the message is checked against the MCP schema the server itself uses,
// so nothing reaches the server that it would drop (which would leave the control request unanswered).
const McpMessageRequestSchema = z.looseObject({ server_name: z.string(), message: z.unknown() });

type Entry = { config: McpSdkServerConfigWithInstance; transport: McpBridgeTransport };

export class McpBridge {
  /** Names for initialize's `sdkMcpServers`. */
  readonly serverNames: string[];
  /** Non-empty settings per server, for initialize's `sdkMcpServerConfigs`. */
  readonly serverConfigs: Record<string, SdkMcpServerSettings>;

  readonly #entries = new Map<string, Entry>();
  readonly #sendToCli: McpBridgeOptions['sendToCli'];
  #starting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: McpBridgeOptions) {
    if (typeof options.sendToCli !== 'function')
      throw new TypeError('McpBridge: sendToCli must be a function');
    this.#sendToCli = options.sendToCli;
    this.serverConfigs = {};
    for (const [name, config] of Object.entries(options.servers)) {
      if (config?.type !== 'sdk' || typeof config.instance?.connect !== 'function') {
        throw new TypeError(`McpBridge: server "${name}" is not an SDK MCP server (use createSdkMcpServer)`);
      }
      this.#entries.set(name, { config, transport: new McpBridgeTransport(name, options.sendToCli) });
      const settings = settingsOf(config);
      if (Object.keys(settings).length > 0) this.serverConfigs[name] = settings;
    }
    this.serverNames = [...this.#entries.keys()];
  }

  /** Connects every server to its transport. Idempotent; call once before initialize. */
  start(): Promise<void> {
    if (this.#closing !== undefined) return Promise.reject(new ControlChannelClosedError('closed'));
    this.#starting ??= Promise.all([...this.#entries].map(([name, entry]) => connect(name, entry))).then(
      () => undefined,
    );
    return this.#starting;
  }

  /**
   * Handles a CLI→SDK `mcp_message` control request and resolves with the reply payload `{mcp_response}`.
   * A JSON-RPC request waits for the server's response of the same id (no timeout: the CLI bounds tool
   * calls itself); notifications and responses are delivered and acked at once.
   */
  async handle(request: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const envelope = McpMessageRequestSchema.safeParse(request);
    if (!envelope.success) throw new ProtocolError('Malformed mcp_message request', excerpt(request));
    const name = envelope.data.server_name;
    const entry = this.#entries.get(name);
    if (entry === undefined) throw new ProtocolError(`SDK MCP server not found: ${name}`);
    const parsed = JSONRPCMessageSchema.safeParse(envelope.data.message);
    if (!parsed.success) {
      throw new ProtocolError(
        `Invalid JSON-RPC message for SDK MCP server ${name}`,
        excerpt(envelope.data.message),
      );
    }
    // Hand over the caller's object, not zod's copy, so nothing in it is lost on the way.
    const message = envelope.data.message as JSONRPCMessage;
    if (this.#closing !== undefined) throw new ControlChannelClosedError('closed');
    await this.start();
    if (isRequest(message)) {
      return { mcp_response: await entry.transport.request(message, signal) };
    }
    entry.transport.deliver(message);
    return { mcp_response: { jsonrpc: '2.0', result: {}, id: 0 } };
  }

  /**
   * Makes `servers` the in-process servers of the session (Query.setMcpServers): servers no longer named
   * are detached, new ones connected; one named again with the same instance stays as it is. Resolves
   * with each server's settings for the CLI (`{type:'sdk', name, ...settings}`).
   */
  async replaceServers(
    servers: Record<string, McpSdkServerConfigWithInstance>,
  ): Promise<Record<string, Record<string, unknown>>> {
    if (this.#closing !== undefined) throw new ControlChannelClosedError('closed');
    await this.start();
    for (const [name, entry] of [...this.#entries]) {
      if (servers[name]?.instance === entry.config.instance) continue;
      this.#entries.delete(name);
      await entry.transport.close();
    }
    const wire: Record<string, Record<string, unknown>> = {};
    for (const [name, config] of Object.entries(servers)) {
      if (!this.#entries.has(name)) {
        const entry = { config, transport: new McpBridgeTransport(name, this.#sendToCli) };
        await connect(name, entry);
        this.#entries.set(name, entry);
      }
      wire[name] = { type: 'sdk', name, ...settingsOf(config) };
    }
    return wire;
  }

  /** Closes every server transport; pending handle() calls reject with ControlChannelClosedError. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#closeAll();
    return this.#closing;
  }

  async #closeAll(): Promise<void> {
    // A connect in progress must finish first, or its server would stay attached to a closed transport.
    await this.#starting?.catch(() => undefined);
    // Closing our transport (not the instance) detaches the server from it and never touches a
    // connection that belongs to someone else.
    await Promise.all([...this.#entries.values()].map((entry) => entry.transport.close()));
  }
}

async function connect(name: string, entry: Entry): Promise<void> {
  if (entry.config.instance.isConnected()) {
    throw new TypeError(
      `SDK MCP server "${name}" is already connected elsewhere: an McpServer serves one session at a time, ` +
        'so create one per query (or close the other query first)',
    );
  }
  await entry.config.instance.connect(entry.transport);
}

function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message && message.id !== null && message.id !== undefined;
}

function settingsOf(config: McpSdkServerConfigWithInstance): SdkMcpServerSettings {
  const { type: _type, name: _name, instance: _instance, ...rest } = config;
  return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
}

function excerpt(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
