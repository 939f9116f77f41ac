// The tool input and output types of `sdk-tools`, used as a host uses them: reading a canUseTool input by
// tool name, and a tool's result (`tool_use_result`) once it ran.
// Typechecked against the official package and, unchanged, against Warden (typecheck.test.ts).
import type { CanUseTool } from '@anthropic-ai/claude-agent-sdk';
import type {
  AgentInput,
  AskUserQuestionInput,
  BashInput,
  BashOutput,
  FileEditInput,
  FileReadInput,
  FileWriteInput,
  GlobInput,
  GlobOutput,
  GrepInput,
  GrepOutput,
  TodoWriteInput,
  TodoWriteOutput,
  ToolInputSchemas,
  WebFetchInput,
  WebFetchOutput,
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
    case 'Glob': {
      const glob = input as unknown as GlobInput;
      return `find ${glob.pattern}${glob.path === undefined ? '' : ` in ${glob.path}`}`;
    }
    case 'Grep': {
      const grep = input as unknown as GrepInput;
      return `search ${grep.pattern} (${grep.output_mode ?? 'files_with_matches'}${grep['-i'] === true ? ', any case' : ''})`;
    }
    case 'TodoWrite':
      return (input as unknown as TodoWriteInput).todos
        .map((todo) => `${todo.status === 'completed' ? '✓' : '•'} ${todo.content}`)
        .join('\n');
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

/** What a host shows once a tool ran, read from the message's `tool_use_result`. */
export function describeResult(toolName: string, result: unknown): string {
  switch (toolName) {
    case 'Bash': {
      const bash = result as BashOutput;
      return bash.interrupted ? 'interrupted' : [bash.stdout, bash.stderr].filter((s) => s !== '').join('\n');
    }
    case 'Glob': {
      const glob = result as GlobOutput;
      return `${glob.numFiles} files${glob.truncated ? ' (truncated)' : ''}: ${glob.filenames.join(', ')}`;
    }
    case 'Grep': {
      const grep = result as GrepOutput;
      return grep.content ?? `${grep.numFiles} files: ${grep.filenames.join(', ')}`;
    }
    case 'WebFetch': {
      const fetched = result as WebFetchOutput;
      return `${fetched.code} ${fetched.codeText} from ${fetched.url} (${fetched.bytes} bytes)`;
    }
    case 'TodoWrite': {
      const todos = result as TodoWriteOutput;
      return `${todos.newTodos.filter((todo) => todo.status !== 'completed').length} open`;
    }
    default:
      return '';
  }
}

export const todos: TodoWriteInput = {
  todos: [{ content: 'Read the notes', status: 'pending', activeForm: 'Reading the notes' }],
};
