/* eslint-disable @typescript-eslint/no-explicit-any -- wire frames are inspected loosely, as in the other tests */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { AbortError, ControlChannelClosedError, ProtocolError } from '../../src/protocol/errors.js';
import { McpBridge } from '../../src/session/mcp-bridge.js';
import { createSdkMcpServer, tool } from '../../src/session/sdk-mcp-server.js';
import type { McpSdkServerConfigWithInstance } from '../../src/session/sdk-mcp-server.js';

const ACK = { mcp_response: { jsonrpc: '2.0', result: {}, id: 0 } };

type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void };

function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

/** Gates keyed by name: a tool handler waits on one, the test opens it. */
class Gates {
  readonly #entered = new Map<string, Deferred<AbortSignal>>();
  readonly #open = new Map<string, Deferred<void>>();

  #get<T>(map: Map<string, Deferred<T>>, key: string): Deferred<T> {
    let entry = map.get(key);
    if (entry === undefined) {
      entry = deferred<T>();
      map.set(key, entry);
    }
    return entry;
  }

  enter(key: string, signal: AbortSignal): Promise<void> {
    this.#get(this.#entered, key).resolve(signal);
    return this.#get(this.#open, key).promise;
  }

  has(key: string): boolean {
    return this.#entered.has(key);
  }

  entered(key: string): Promise<AbortSignal> {
    return this.#get(this.#entered, key).promise;
  }

  open(key: string): void {
    this.#get(this.#open, key).resolve();
  }
}

function makeServer(gates = new Gates()): McpSdkServerConfigWithInstance {
  return createSdkMcpServer({
    name: 'calc',
    version: '2.0.0',
    instructions: 'Use calc for sums.',
    tools: [
      tool(
        'add',
        'Adds two numbers',
        { a: z.number().describe('first'), b: z.number(), note: z.string().optional() },
        async ({ a, b }) => Promise.resolve({ content: [{ type: 'text', text: String(a + b) }] }),
      ),
      tool('fail', 'Always throws', {}, async () => Promise.reject(new Error('boom'))),
      tool('wait', 'Waits for its gate', { key: z.string() }, async ({ key }, extra) => {
        await gates.enter(key, (extra as { signal: AbortSignal }).signal);
        return { content: [{ type: 'text', text: `done:${key}` }] };
      }),
      tool('ping-client', 'Pings the client and reports', {}, async (_args, extra) => {
        const { sendRequest } = extra as {
          sendRequest: (request: { method: string }, schema: z.ZodType) => Promise<unknown>;
        };
        const reply = await sendRequest({ method: 'ping' }, z.object({}).loose());
        return { content: [{ type: 'text', text: `pong:${JSON.stringify(reply)}` }] };
      }),
    ],
  });
}

type Sent = { serverName: string; message: Record<string, unknown> };

function makeBridge(config = makeServer()): {
  bridge: McpBridge;
  sent: Sent[];
  nextSent: () => Promise<Sent>;
} {
  const sent: Sent[] = [];
  const waiters: Array<(value: Sent) => void> = [];
  const bridge = new McpBridge({
    servers: { calc: config },
    sendToCli: (serverName, message) => {
      const item = { serverName, message: message as Record<string, unknown> };
      sent.push(item);
      waiters.shift()?.(item);
      return Promise.resolve();
    },
  });
  let read = 0;
  const nextSent = (): Promise<Sent> => {
    const item = sent[read];
    if (item !== undefined) {
      read += 1;
      return Promise.resolve(item);
    }
    return new Promise((resolve) => {
      waiters.push((value) => {
        read += 1;
        resolve(value);
      });
    });
  };
  return { bridge, sent, nextSent };
}

const never = new AbortController().signal;

function rpc(
  id: string | number,
  method: string,
  params: Record<string, unknown> = {},
): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params };
}

function mcp(message: Record<string, unknown>, serverName = 'calc'): Record<string, unknown> {
  return { subtype: 'mcp_message', server_name: serverName, message };
}

/** The handshake the CLI runs over mcp_message; returns the initialize response. */
async function handshake(bridge: McpBridge): Promise<Record<string, unknown>> {
  const init = await bridge.handle(
    mcp(
      rpc(0, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'claude-code', version: '2.1.328' },
      }),
    ),
    never,
  );
  const ack = await bridge.handle(mcp({ jsonrpc: '2.0', method: 'notifications/initialized' }), never);
  assert.deepEqual(ack, ACK);
  return init;
}

function call(id: string | number, name: string, args: Record<string, unknown>): Record<string, unknown> {
  return mcp(rpc(id, 'tools/call', { name, arguments: args }));
}

void describe('McpBridge', () => {
  void it('names its servers and starts idempotently', async () => {
    const { bridge } = makeBridge();
    assert.deepEqual(bridge.serverNames, ['calc']);
    await bridge.start();
    await bridge.start();
    await bridge.close();
  });

  void it('answers the MCP initialize handshake with server info and instructions', async () => {
    const { bridge } = makeBridge();
    await bridge.start();
    const init = await handshake(bridge);
    const response = init.mcp_response as Record<string, any>;
    assert.equal(response.jsonrpc, '2.0');
    assert.equal(response.id, 0);
    assert.equal(response.result.protocolVersion, '2025-11-25');
    assert.deepEqual(response.result.serverInfo, { name: 'calc', version: '2.0.0' });
    assert.equal(response.result.instructions, 'Use calc for sums.');
    assert.ok(response.result.capabilities.tools);
    await bridge.close();
  });

  void it('lists tools with JSON schemas built from the zod shapes', async () => {
    const { bridge } = makeBridge();
    await bridge.start();
    await handshake(bridge);
    const { mcp_response: response } = (await bridge.handle(mcp(rpc(1, 'tools/list')), never)) as Record<
      string,
      any
    >;
    assert.equal(response.id, 1);
    const tools = response.result.tools as Array<{ name: string; description: string; inputSchema: any }>;
    assert.deepEqual(
      tools.map((t) => t.name),
      ['add', 'fail', 'wait', 'ping-client'],
    );
    const add = tools[0]!;
    assert.equal(add.description, 'Adds two numbers');
    assert.equal(add.inputSchema.type, 'object');
    assert.deepEqual(add.inputSchema.properties.a, { type: 'number', description: 'first' });
    assert.deepEqual(add.inputSchema.properties.b, { type: 'number' });
    assert.deepEqual(add.inputSchema.properties.note, { type: 'string' });
    assert.deepEqual(add.inputSchema.required, ['a', 'b']);
    await bridge.close();
  });

  void it('runs tools/call with the parsed arguments and returns the handler content', async () => {
    const { bridge } = makeBridge();
    await bridge.start();
    await handshake(bridge);
    const reply = await bridge.handle(call(7, 'add', { a: 2, b: 40 }), never);
    assert.deepEqual(reply, {
      mcp_response: { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: '42' }] } },
    });
    await bridge.close();
  });

  void it('turns a throwing handler or invalid arguments into an isError result', async () => {
    const { bridge } = makeBridge();
    await bridge.start();
    await handshake(bridge);
    const thrown = (await bridge.handle(call(8, 'fail', {}), never)) as Record<string, any>;
    assert.equal(thrown.mcp_response.id, 8);
    assert.deepEqual(thrown.mcp_response.result, {
      content: [{ type: 'text', text: 'boom' }],
      isError: true,
    });
    const invalid = (await bridge.handle(call(9, 'add', { a: 'two', b: 1 }), never)) as Record<string, any>;
    assert.equal(invalid.mcp_response.id, 9);
    assert.equal(invalid.mcp_response.result.isError, true);
    await bridge.close();
  });

  void it('gives each of several concurrent calls with interleaved ids its own response', async () => {
    const gates = new Gates();
    const { bridge } = makeBridge(makeServer(gates));
    await bridge.start();
    await handshake(bridge);
    const ids: Array<string | number> = [11, 'x-1', 3, 'x-2', 12];
    const keys = ['k0', 'k1', 'k2', 'k3', 'k4'];
    const replies = ids.map((id, i) => bridge.handle(call(id, 'wait', { key: keys[i] }), never));
    await Promise.all(keys.map((key) => gates.entered(key)));
    // Finish in the reverse order of arrival, so no reply can be matched by position.
    for (const key of [...keys].reverse()) gates.open(key);
    const results = (await Promise.all(replies)) as Array<Record<string, any>>;
    results.forEach((reply, i) => {
      assert.equal(reply.mcp_response.id, ids[i]);
      assert.deepEqual(reply.mcp_response.result.content, [{ type: 'text', text: `done:${keys[i]}` }]);
    });
    await bridge.close();
  });

  void it('rejects an unknown server with the official message', async () => {
    const { bridge } = makeBridge();
    await bridge.start();
    await assert.rejects(bridge.handle(mcp(rpc(1, 'tools/list'), 'nope'), never), (error: unknown) => {
      assert.ok(error instanceof ProtocolError);
      assert.equal(error.message, 'SDK MCP server not found: nope');
      return true;
    });
    await bridge.close();
  });

  void it('rejects a message that is not JSON-RPC with a ProtocolError', async () => {
    const { bridge } = makeBridge();
    await bridge.start();
    await assert.rejects(bridge.handle(mcp({ hello: 'world' }), never), ProtocolError);
    await assert.rejects(bridge.handle({ subtype: 'mcp_message', message: {} }, never), ProtocolError);
    await bridge.close();
  });

  void it('acks a notification at once', async () => {
    const { bridge } = makeBridge();
    await bridge.start();
    await handshake(bridge);
    const reply = await bridge.handle(
      mcp({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }),
      never,
    );
    assert.deepEqual(reply, ACK);
    await bridge.close();
  });

  void it('sends server requests to the CLI and delivers the CLI response back', async () => {
    const { bridge, nextSent } = makeBridge();
    await bridge.start();
    await handshake(bridge);
    const reply = bridge.handle(call(20, 'ping-client', {}), never);
    const outbound = await nextSent();
    assert.equal(outbound.serverName, 'calc');
    assert.equal(outbound.message.method, 'ping');
    const ack = await bridge.handle(
      mcp({ jsonrpc: '2.0', id: outbound.message.id, result: { ok: true } }),
      never,
    );
    assert.deepEqual(ack, ACK);
    const result = (await reply) as Record<string, any>;
    assert.equal(result.mcp_response.id, 20);
    assert.deepEqual(result.mcp_response.result.content, [{ type: 'text', text: 'pong:{"ok":true}' }]);
    await bridge.close();
  });

  void it('sends server notifications to the CLI', async () => {
    const config = makeServer();
    const { bridge, nextSent } = makeBridge(config);
    await bridge.start();
    await handshake(bridge);
    config.instance.registerTool('late', { description: 'Registered after connect' }, () => ({
      content: [],
    }));
    const outbound = await nextSent();
    assert.deepEqual(outbound, {
      serverName: 'calc',
      message: { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
    });
    await bridge.close();
  });

  void it('reports a failed notification through the server instead of an unhandled rejection', async () => {
    const config = makeServer();
    const failure = new Error('channel gone');
    const bridge = new McpBridge({ servers: { calc: config }, sendToCli: () => Promise.reject(failure) });
    const reported = deferred<Error>();
    config.instance.server.onerror = (error) => reported.resolve(error);
    await bridge.start();
    await handshake(bridge);
    config.instance.registerTool('late', { description: 'Registered after connect' }, () => ({
      content: [],
    }));
    assert.equal(await reported.promise, failure);
    await bridge.close();
  });

  void it('rejects pending calls with ControlChannelClosedError on close, and closes idempotently', async () => {
    const gates = new Gates();
    const { bridge } = makeBridge(makeServer(gates));
    await bridge.start();
    await handshake(bridge);
    const pending = bridge.handle(call(30, 'wait', { key: 'stuck' }), never);
    const handlerSignal = await gates.entered('stuck');
    await Promise.all([bridge.close(), bridge.close()]);
    await assert.rejects(pending, (error: unknown) => {
      assert.ok(error instanceof ControlChannelClosedError);
      assert.equal(error.reason, 'closed');
      return true;
    });
    assert.equal(handlerSignal.aborted, true);
    await assert.rejects(bridge.handle(call(31, 'add', { a: 1, b: 1 }), never), ControlChannelClosedError);
    await assert.rejects(bridge.start(), ControlChannelClosedError);
  });

  void it('rejects with AbortError when the signal aborts, and cancels the call in the server', async () => {
    const gates = new Gates();
    const { bridge } = makeBridge(makeServer(gates));
    await bridge.start();
    await handshake(bridge);
    const controller = new AbortController();
    const pending = bridge.handle(call(40, 'wait', { key: 'slow' }), controller.signal);
    const handlerSignal = await gates.entered('slow');
    controller.abort();
    await assert.rejects(pending, (error: unknown) => {
      assert.ok(error instanceof AbortError);
      assert.equal(error.code, 'ABORTED');
      return true;
    });
    assert.equal(handlerSignal.aborted, true);
    // The id is free again and the server still answers.
    gates.open('slow');
    const reply = (await bridge.handle(call(40, 'add', { a: 1, b: 2 }), never)) as Record<string, any>;
    assert.deepEqual(reply.mcp_response.result.content, [{ type: 'text', text: '3' }]);
    await bridge.close();
  });

  void it('rejects an already aborted signal without running the tool', async () => {
    const gates = new Gates();
    const { bridge } = makeBridge(makeServer(gates));
    await bridge.start();
    await handshake(bridge);
    await assert.rejects(bridge.handle(call(41, 'wait', { key: 'never' }), AbortSignal.abort()), AbortError);
    // A later call's round trip shows the server has handled everything delivered before it.
    await bridge.handle(call(42, 'add', { a: 0, b: 0 }), never);
    assert.equal(gates.has('never'), false);
    await bridge.close();
  });

  void it('lets a server serve a new bridge after the old one closed, but not two at once', async () => {
    const config = makeServer();
    const first = makeBridge(config).bridge;
    await first.start();
    const second = makeBridge(config).bridge;
    await assert.rejects(second.start(), TypeError);
    await first.close();
    const third = makeBridge(config).bridge;
    await third.start();
    await handshake(third);
    const reply = (await third.handle(call(1, 'add', { a: 5, b: 5 }), never)) as Record<string, any>;
    assert.deepEqual(reply.mcp_response.result.content, [{ type: 'text', text: '10' }]);
    await Promise.all([second.close(), third.close()]);
  });

  void it('exposes per-server settings for initialize and rejects non-SDK servers', () => {
    const plain = makeServer();
    const timed = { ...createSdkMcpServer({ name: 'timed', timeout: 5000 }) };
    const bridge = new McpBridge({ servers: { calc: plain, timed }, sendToCli: () => Promise.resolve() });
    assert.deepEqual(bridge.serverConfigs, { timed: { timeout: 5000 } });
    assert.throws(
      () =>
        new McpBridge({
          servers: { bad: { type: 'stdio', command: 'x' } as unknown as McpSdkServerConfigWithInstance },
          sendToCli: () => Promise.resolve(),
        }),
      TypeError,
    );
  });
});
