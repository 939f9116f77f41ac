// Requests shaped like the ones Claude Code 2.1.328 sends to the Messages API, and a reader for the SSE
// answer, for tests that talk to the mock over HTTP without the CLI.

export interface CliRequestOptions {
  readonly prompt: string;
  /** Tool round trips already in the conversation: each adds an assistant tool_use and its result. */
  readonly results?: readonly string[];
  /** A later user message that starts a new turn (e.g. a task notification). */
  readonly followUp?: string;
  readonly stream?: boolean;
  readonly subagent?: boolean;
  readonly tools?: readonly string[];
}

export function cliRequestBody(options: CliRequestOptions): Record<string, unknown> {
  const billing = `x-anthropic-billing-header: cc_version=2.1.328; cc_entrypoint=sdk-ts;${options.subagent === true ? ' cc_is_subagent=true;' : ''}`;
  const messages: unknown[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: '<system-reminder>\nAttribution...\n</system-reminder>\n' },
        { type: 'text', text: options.prompt },
      ],
    },
    // The CLI puts a system-role message after the first prompt: the last message is not always a user one.
    { role: 'system', content: [{ type: 'text', text: '# Environment\n...' }] },
  ];
  (options.results ?? []).forEach((output, index) => {
    const id = `toolu_test_${index + 1}`;
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'true' } }],
    });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: output, is_error: false }],
    });
  });
  if (options.followUp !== undefined) {
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'previous answer' }] });
    messages.push({ role: 'user', content: [{ type: 'text', text: options.followUp }] });
  }
  return {
    model: 'claude-opus-5-5',
    max_tokens: 128000,
    stream: options.stream ?? true,
    system: [
      { type: 'text', text: billing },
      { type: 'text', text: "You are a Claude agent, built on Anthropic's Claude Agent SDK." },
    ],
    tools: (options.tools ?? ['Agent', 'Bash', 'Read']).map((name) => ({
      name,
      description: name,
      input_schema: {},
    })),
    messages,
  };
}

export function post(
  url: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

// Response bodies are loosely typed on purpose: tests reach into them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

export async function readJson(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

export interface SseEvent {
  readonly event: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly data: any;
}

/** Parses a complete `text/event-stream` body into its events. */
export function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? '';
      const data = lines.find((line) => line.startsWith('data: '))?.slice(6) ?? 'null';
      return { event, data: JSON.parse(data) as unknown };
    });
}

/** The text and tool calls of a streamed message, reassembled from its deltas. */
export function reassemble(events: readonly SseEvent[]): {
  text: string;
  tools: { name: string; input: unknown }[];
} {
  let text = '';
  const tools: { name: string; json: string }[] = [];
  for (const { data } of events) {
    if (data.type === 'content_block_start' && data.content_block.type === 'tool_use') {
      tools[data.index] = { name: data.content_block.name, json: '' };
    }
    if (data.type === 'content_block_delta' && data.delta.type === 'text_delta') text += data.delta.text;
    if (data.type === 'content_block_delta' && data.delta.type === 'input_json_delta') {
      tools[data.index]!.json += data.delta.partial_json;
    }
  }
  return { text, tools: tools.filter(Boolean).map(({ name, json }) => ({ name, input: JSON.parse(json) })) };
}
