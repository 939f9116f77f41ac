// Renders a script's reply as the Responses API streams it: response.created and response.in_progress,
// then per output item output_item.added, its deltas (output_text, function_call_arguments or
// custom_tool_call_input) and output_item.done, and response.completed with the usage. Every event carries
// its type and a sequence_number; there is no `[DONE]` line. Pure: ids come from the caller.
import { chunk } from './mock-reply.js';
import type { ResponsesItem, ResponsesReply } from './mock-responses-types.js';

const CHUNK_CHARS = 48;

export interface ResponsesIds {
  next(prefix: string): string;
}

type Event = Record<string, unknown> & { type: string };

/** The wire item for one scripted item, as output_item.done carries it. */
function outputItem(item: ResponsesItem, ids: ResponsesIds): Record<string, unknown> {
  switch (item.type) {
    case 'text':
      return {
        type: 'message',
        id: ids.next('msg'),
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: item.text, annotations: [] }],
      };
    case 'exec': {
      const args: Record<string, unknown> = { cmd: item.cmd };
      if (item.workdir !== undefined) args['workdir'] = item.workdir;
      if (item.escalate !== undefined) {
        args['sandbox_permissions'] = 'require_escalated';
        args['justification'] = item.escalate;
      }
      return functionCall('exec_command', args, item.callId, ids);
    }
    case 'function':
      return functionCall(item.name, item.arguments, item.callId, ids);
    case 'patch':
      return {
        type: 'custom_tool_call',
        id: ids.next('ctc'),
        call_id: item.callId ?? ids.next('call'),
        name: 'apply_patch',
        input: item.patch,
        status: 'completed',
      };
  }
}

function functionCall(
  name: string,
  args: Readonly<Record<string, unknown>>,
  callId: string | undefined,
  ids: ResponsesIds,
): Record<string, unknown> {
  const id = ids.next('fc');
  return {
    type: 'function_call',
    id,
    call_id: callId ?? ids.next('call'),
    name,
    arguments: JSON.stringify(args),
    status: 'completed',
  };
}

/** The events between output_item.added and output_item.done of one item. */
function deltas(done: Record<string, unknown>, outputIndex: number): Event[] {
  const itemId = String(done['id']);
  const base = { item_id: itemId, output_index: outputIndex };
  if (done['type'] === 'message') {
    const text = String((done['content'] as { text: string }[])[0]?.text ?? '');
    const part = { ...base, content_index: 0 };
    return [
      {
        type: 'response.content_part.added',
        ...part,
        part: { type: 'output_text', text: '', annotations: [] },
      },
      ...chunk(text, CHUNK_CHARS).map((delta) => ({ type: 'response.output_text.delta', ...part, delta })),
      { type: 'response.output_text.done', ...part, text },
      { type: 'response.content_part.done', ...part, part: { type: 'output_text', text, annotations: [] } },
    ];
  }
  const [field, kind] =
    done['type'] === 'function_call'
      ? (['arguments', 'response.function_call_arguments'] as const)
      : (['input', 'response.custom_tool_call_input'] as const);
  const text = String(done[field]);
  return [
    ...chunk(text, CHUNK_CHARS).map((delta) => ({ type: `${kind}.delta`, ...base, delta })),
    { type: `${kind}.done`, ...base, [field]: text },
  ];
}

/** The item as output_item.added announces it: in progress, its text or arguments still empty. */
function started(done: Record<string, unknown>): Record<string, unknown> {
  if (done['type'] === 'message') return { ...done, status: 'in_progress', content: [] };
  if (done['type'] === 'function_call') return { ...done, status: 'in_progress', arguments: '' };
  return { ...done, status: 'in_progress', input: '' };
}

/** The whole event sequence of one streamed response, numbered. */
export function responseEvents(reply: ResponsesReply, model: string, ids: ResponsesIds): Event[] {
  const id = ids.next('resp');
  const output = (reply.items ?? []).map((item) => outputItem(item, ids));
  const response = (status: string, items: unknown[]): Record<string, unknown> => ({
    id,
    object: 'response',
    model,
    status,
    output: items,
  });
  const events: Event[] = [
    { type: 'response.created', response: response('in_progress', []) },
    { type: 'response.in_progress', response: response('in_progress', []) },
    ...output.flatMap((done, index) => [
      { type: 'response.output_item.added', output_index: index, item: started(done) },
      ...deltas(done, index),
      { type: 'response.output_item.done', output_index: index, item: done },
    ]),
  ];
  if (reply.hang !== true) {
    const outputTokens = Math.max(1, Math.ceil(JSON.stringify(output).length / 4));
    events.push({
      type: 'response.completed',
      response: {
        ...response('completed', output),
        usage: {
          input_tokens: 1,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 1 + outputTokens,
        },
      },
    });
  }
  return events.map((event, sequence) => ({ ...event, sequence_number: sequence }));
}

export function formatResponsesSse(event: Event): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** A one-word description per item, for the request record. */
export function describeItems(reply: ResponsesReply): string[] {
  if (reply.status !== undefined && reply.status >= 400) return [`error ${reply.status}`];
  const words = (reply.items ?? []).map((item) =>
    item.type === 'function' ? `function:${item.name}` : item.type,
  );
  return reply.hang === true ? [...words, 'hang'] : words;
}
