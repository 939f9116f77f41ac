// A Codex question (`item/tool/requestUserInput`: one to three questions, each with its options and a
// free-form "Other") as Warden's question card: an AskUserQuestion approval whose answers come back by
// question text, and go to Codex by question id. A question not answered gets no answer.
import type { ToolRequestUserInputParams, ToolRequestUserInputResponse } from '../../agents/codex/index.js';
import type { AgentPermissionRequest } from './agent.js';

export function questionRequest(id: string, params: ToolRequestUserInputParams): AgentPermissionRequest {
  return {
    requestId: id,
    kind: 'question',
    toolName: 'AskUserQuestion',
    input: {
      questions: params.questions.map((question) => ({
        question: question.question,
        header: question.header,
        options: (question.options ?? []).map(({ label, description }) => ({ label, description })),
        multiSelect: false,
      })),
    },
    turnId: params.turnId,
    raw: params,
  };
}

/** The answers, by question text, as Codex takes them: by question id, each a list of one. */
export function questionResponse(
  params: ToolRequestUserInputParams,
  answers: Readonly<Record<string, string>> | null,
): ToolRequestUserInputResponse {
  const byId: ToolRequestUserInputResponse['answers'] = {};
  for (const question of params.questions) {
    const answer = answers?.[question.question];
    byId[question.id] = { answers: answer === undefined ? [] : [answer] };
  }
  return { answers: byId };
}
