/* eslint-disable @typescript-eslint/no-explicit-any -- wire frames are inspected loosely, as in the other tests */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as official from '@anthropic-ai/claude-agent-sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { McpBridge } from '../../src/session/mcp-bridge.js';
import { createSdkMcpServer, tool } from '../../src/session/sdk-mcp-server.js';
import type { McpSdkServerConfigWithInstance } from '../../src/session/sdk-mcp-server.js';

const echo = async ({ text }: { text: string }) =>
  Promise.resolve({ content: [{ type: 'text' as const, text }] });
const nothing = async () => Promise.resolve({ content: [] });
const never = new AbortController().signal;

type ListedTool = { name: string; annotations?: unknown; _meta?: Record<string, unknown> };

/** Runs the CLI's handshake and tools/list against a server; returns the initialize result and tools. */
async function inspect(config: McpSdkServerConfigWithInstance): Promise<{ init: any; tools: ListedTool[] }> {
  const bridge = new McpBridge({ servers: { s: config }, sendToCli: () => Promise.resolve() });
  await bridge.start();
  const send = (message: Record<string, unknown>) =>
    bridge.handle({ subtype: 'mcp_message', server_name: 's', message }, never) as Promise<
      Record<string, any>
    >;
  try {
    const init = await send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'claude-code', version: '0' },
      },
    });
    await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const list = await send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    return { init: init.mcp_response.result, tools: (list.mcp_response.result?.tools ?? []) as ListedTool[] };
  } finally {
    await bridge.close();
  }
}

void describe('tool()', () => {
  void it('has the keys and _meta of the official tool()', () => {
    const extras = { annotations: { readOnlyHint: true }, searchHint: 'echo text', alwaysLoad: true };
    const ours = tool('echo', 'Echo', { text: z.string() }, echo, extras);
    const theirs = official.tool('echo', 'Echo', { text: z.string() }, echo, extras);
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(theirs).sort());
    assert.deepEqual(ours._meta, theirs._meta);
    assert.deepEqual(ours.annotations, theirs.annotations);
    assert.equal(ours.name, theirs.name);
    assert.equal(ours.description, theirs.description);

    const plain = tool('echo', 'Echo', { text: z.string() }, echo);
    const plainTheirs = official.tool('echo', 'Echo', { text: z.string() }, echo);
    assert.deepEqual(Object.keys(plain).sort(), Object.keys(plainTheirs).sort());
    assert.equal(plain._meta, plainTheirs._meta);
    assert.equal(plain.annotations, plainTheirs.annotations);
    // alwaysLoad: false marks nothing, as in the official SDK.
    const off = { alwaysLoad: false };
    assert.deepEqual(tool('e', 'E', {}, nothing, off)._meta, official.tool('e', 'E', {}, nothing, off)._meta);
  });
});

void describe('createSdkMcpServer()', () => {
  void it('returns the same shape as the official createSdkMcpServer()', () => {
    const tools = [tool('echo', 'Echo', { text: z.string() }, echo)];
    const ours = createSdkMcpServer({ name: 'srv', tools });
    const theirs = official.createSdkMcpServer({
      name: 'srv',
      tools: [official.tool('echo', 'Echo', { text: z.string() }, echo)],
    });
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(theirs).sort());
    assert.equal(ours.type, 'sdk');
    assert.equal(ours.type, theirs.type);
    assert.equal(ours.name, theirs.name);
    assert.ok(ours.instance instanceof McpServer);

    const timedOurs = createSdkMcpServer({ name: 'srv', timeout: 5000 });
    const timedTheirs = official.createSdkMcpServer({ name: 'srv', timeout: 5000 });
    assert.deepEqual(Object.keys(timedOurs).sort(), Object.keys(timedTheirs).sort());
    assert.equal(timedOurs.timeout, timedTheirs.timeout);
  });

  void it('accepts tools built by the official tool()', async () => {
    const config = createSdkMcpServer({
      name: 'mixed',
      tools: [official.tool('echo', 'Echo', { text: z.string() }, echo, { searchHint: 'say' })],
    });
    const { tools } = await inspect(config);
    assert.deepEqual(
      tools.map((t) => [t.name, t._meta]),
      [['echo', { 'anthropic/searchHint': 'say' }]],
    );
  });

  void it('reports name, default version and instructions in the MCP initialize result', async () => {
    const { init } = await inspect(createSdkMcpServer({ name: 'srv', instructions: 'Be brief.' }));
    assert.deepEqual(init.serverInfo, { name: 'srv', version: '1.0.0' });
    assert.equal(init.instructions, 'Be brief.');
  });

  void it('puts annotations, searchHint and alwaysLoad on the listed tools; server alwaysLoad ORs in', async () => {
    const config = createSdkMcpServer({
      name: 'srv',
      alwaysLoad: true,
      tools: [
        tool('a', 'A', { text: z.string() }, echo, {
          annotations: { readOnlyHint: true },
          searchHint: 'find a',
        }),
        tool('b', 'B', { text: z.string() }, echo, { alwaysLoad: false }),
      ],
    });
    const { tools } = await inspect(config);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.deepEqual(byName.a!.annotations, { readOnlyHint: true });
    assert.deepEqual(byName.a!._meta, { 'anthropic/searchHint': 'find a', 'anthropic/alwaysLoad': true });
    assert.deepEqual(byName.b!._meta, { 'anthropic/alwaysLoad': true });

    const without = await inspect(createSdkMcpServer({ name: 'srv', tools: [tool('c', 'C', {}, nothing)] }));
    assert.equal(without.tools[0]!._meta, undefined);
  });

  void it('leaves out a tool whose schema has no JSON Schema form, with a warning, and keeps the rest', async () => {
    const warned = new Promise<Error & { code?: string }>((resolve) => {
      const listener = (warning: Error & { code?: string }): void => {
        if (warning.code !== 'CLAUDE_SDK_MCP_TOOL_SCHEMA_UNCONVERTIBLE') return;
        process.off('warning', listener);
        resolve(warning);
      };
      process.on('warning', listener);
    });
    const config = createSdkMcpServer({
      name: 'srv',
      tools: [
        tool('when', 'Takes a Date', { at: z.date() }, nothing),
        tool('echo', 'Echo', { text: z.string() }, echo),
      ],
    });
    const warning = await warned;
    assert.match(warning.message, /"when"/);
    const { tools } = await inspect(config);
    assert.deepEqual(
      tools.map((t) => t.name),
      ['echo'],
    );
  });

  void it('throws a TypeError for a missing name', () => {
    assert.throws(() => createSdkMcpServer({ name: '' }), TypeError);
  });
});
