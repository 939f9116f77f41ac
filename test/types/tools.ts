// The tool input types of `sdk-tools`, used as a host uses them: reading a canUseTool input by tool name.
// Typechecked against the official package and, unchanged, against Warden (typecheck.test.ts).
import type { CanUseTool } from '@anthropic-ai/claude-agent-sdk';
import type {
  AgentInput,
  AskUserQuestionInput,
  BashInput,
  FileEditInput,
  FileReadInput,
  FileWriteInput,
  ToolInputSchemas,
  WebFetchInput,
} from '@anthropic-ai/claude-agent-sdk/sdk-tools';

export function describeCall(toolName: string, input: Record<string, unknown>): string {
  switch (toolName) {
    case 'Bash': {
      const bash = input as unknown as BashInput;
      return `${bash.description ?? 'run'}: ${bash.command}${bash.run_in_background === true ? ' &' : ''}`;
    }
    case 'Edit': {
      const edit = input as unknown as FileEditInput;
      return `edit ${edit.file_path} (${edit.old_string.length} → ${edit.new_string.length} chars)`;
    }
    case 'Read':
      return `read ${(input as unknown as FileReadInput).file_path}`;
    case 'Write':
      return `write ${(input as unknown as FileWriteInput).file_path}`;
    case 'Agent': {
      const agent = input as unknown as AgentInput;
      return `${agent.subagent_type ?? 'agent'}: ${agent.description}`;
    }
    case 'WebFetch':
      return `fetch ${(input as unknown as WebFetchInput).url}`;
    case 'AskUserQuestion':
      return (input as unknown as AskUserQuestionInput).questions.map((q) => q.question).join(' / ');
    default:
      return toolName;
  }
}

export const canUseTool: CanUseTool = (toolName, input) => {
  const label = describeCall(toolName, input);
  return Promise.resolve(
    label.includes('rm -rf')
      ? { behavior: 'deny', message: label }
      : { behavior: 'allow', updatedInput: input },
  );
};

export const sample: ToolInputSchemas[] = [
  { command: 'ls' } satisfies BashInput,
  { file_path: '/tmp/a', old_string: 'a', new_string: 'b' } satisfies FileEditInput,
];
