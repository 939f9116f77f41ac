// In-process MCP servers: `tool()` and `createSdkMcpServer()` with the names, arguments and return shapes of
// the official Agent SDK, so code that builds servers for it moves over by changing the import. The server
// itself is the MCP TypeScript SDK's `McpServer`; the session's McpBridge connects it to the CLI.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { objectFromShape } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ZodRawShape as ZodRawShapeV3 } from 'zod/v3';
import type { ZodRawShape as ZodRawShapeV4 } from 'zod/v4';

/** A zod raw shape (`{ field: z.string(), … }`) from zod 3 or zod 4. */
export type AnyZodRawShape = ZodRawShapeV3 | ZodRawShapeV4;

/** The parsed arguments a handler receives for a shape. */
export type InferShape<T extends AnyZodRawShape> = {
  [K in keyof T]: T[K] extends { _output: infer O } ? O : never;
} & {};

/** A tool for an in-process server. Holds a function, so it is not serialisable. */
export type SdkMcpToolDefinition<Schema extends AnyZodRawShape = AnyZodRawShape> = {
  name: string;
  description: string;
  inputSchema: Schema;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
  handler: (args: InferShape<Schema>, extra: unknown) => Promise<CallToolResult>;
};

/**
 * A tool of any shape, for lists that mix shapes. The handler's arguments are `any` because parameter
 * types are contravariant: this also accepts tools built by the official SDK's `tool()`, whose types are
 * structurally ours but a different alias.
 */
export type AnySdkMcpToolDefinition = Omit<SdkMcpToolDefinition, 'handler'> & {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  handler: (args: any, extra: unknown) => Promise<CallToolResult>;
};

/** Per-tool permission policy the host declares for a server's tools (read by the CLI, not by the server). */
export type McpServerToolPolicy = {
  name: string;
  permission_policy?: 'always_allow' | 'always_ask' | 'always_deny';
  org_max_permission?: 'allow' | 'ask' | 'blocked';
};

/** The serialisable part of an in-process server's config: what reaches the CLI. */
export type McpSdkServerConfig = {
  type: 'sdk';
  name: string;
  /** Per-server tool-call timeout in ms, enforced by the CLI (values below 1000 are ignored there). */
  timeout?: number;
  tools?: McpServerToolPolicy[];
};

/** An in-process server config with its live `McpServer`. Not serialisable. */
export type McpSdkServerConfigWithInstance = McpSdkServerConfig & {
  instance: McpServer;
};

export type CreateSdkMcpServerOptions = {
  name: string;
  /** Reported in the MCP `initialize` result; defaults to `1.0.0`. */
  version?: string;
  /** Server instructions returned from `initialize` and shown to the model. */
  instructions?: string;
  tools?: Array<AnySdkMcpToolDefinition>;
  /** Marks every tool `_meta['anthropic/alwaysLoad']` (never deferred behind tool search); OR'd with the per-tool flag. */
  alwaysLoad?: boolean;
  /** Per-server tool-call timeout in ms, passed to the CLI. */
  timeout?: number;
};

const SEARCH_HINT = 'anthropic/searchHint';
const ALWAYS_LOAD = 'anthropic/alwaysLoad';
const UNCONVERTIBLE_WARNING = 'CLAUDE_SDK_MCP_TOOL_SCHEMA_UNCONVERTIBLE';

/** Defines a tool. `inputSchema` is a zod raw shape; the handler receives the parsed arguments. */
export function tool<Schema extends AnyZodRawShape>(
  name: string,
  description: string,
  inputSchema: Schema,
  handler: (args: InferShape<Schema>, extra: unknown) => Promise<CallToolResult>,
  extras?: { annotations?: ToolAnnotations; searchHint?: string; alwaysLoad?: boolean },
): SdkMcpToolDefinition<Schema> {
  const meta: Record<string, unknown> = {};
  if (extras?.searchHint !== undefined) meta[SEARCH_HINT] = extras.searchHint;
  if (extras?.alwaysLoad === true) meta[ALWAYS_LOAD] = true;
  // Both keys are always there, `undefined` when not given, as the official tool() sets them; the declared
  // type is the official one, whose optional keys do not say `| undefined`.
  return {
    name,
    description,
    inputSchema,
    handler,
    annotations: extras?.annotations,
    _meta: Object.keys(meta).length === 0 ? undefined : meta,
  } as SdkMcpToolDefinition<Schema>;
}

/** Creates an in-process MCP server; pass the result in `options.mcpServers`. */
export function createSdkMcpServer(options: CreateSdkMcpServerOptions): McpSdkServerConfigWithInstance {
  if (typeof options.name !== 'string' || options.name === '') {
    throw new TypeError('createSdkMcpServer: name must be a non-empty string');
  }
  const instance = new McpServer(
    { name: options.name, version: options.version ?? '1.0.0' },
    options.instructions === undefined ? {} : { instructions: options.instructions },
  );
  for (const definition of options.tools ?? []) {
    register(instance, definition, options.alwaysLoad === true);
  }
  const config: McpSdkServerConfigWithInstance = { type: 'sdk', name: options.name, instance };
  if (options.timeout !== undefined) config.timeout = options.timeout;
  return config;
}

function register(instance: McpServer, definition: AnySdkMcpToolDefinition, alwaysLoad: boolean): void {
  // Raw shapes of zod 3 and 4 are what the MCP SDK accepts; the union type just does not say so.
  const shape = definition.inputSchema as ZodRawShapeCompat;
  // tools/list converts every schema at once, so one that cannot become JSON Schema would break the whole
  // list. Leave that tool out, say so, and let the others load.
  const problem = unconvertible(shape);
  if (problem !== undefined) {
    process.emitWarning(
      `SDK MCP tool "${definition.name}" was left out: its input schema cannot be converted to JSON Schema (${problem})`,
      { code: UNCONVERTIBLE_WARNING },
    );
    return;
  }
  const meta = alwaysLoad ? { ...definition._meta, [ALWAYS_LOAD]: true } : definition._meta;
  instance.registerTool(
    definition.name,
    {
      description: definition.description,
      inputSchema: shape,
      ...(definition.annotations === undefined ? {} : { annotations: definition.annotations }),
      ...(meta === undefined ? {} : { _meta: meta }),
    },
    // McpServer validates the arguments against the shape before calling; a throw becomes an isError result.
    (args: unknown, extra: unknown) => definition.handler(args, extra),
  );
}

function unconvertible(shape: ZodRawShapeCompat): string | undefined {
  try {
    toJsonSchemaCompat(objectFromShape(shape), { strictUnions: true, pipeStrategy: 'input' });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
