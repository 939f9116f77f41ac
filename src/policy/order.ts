// The order in which the policy decides, as data: `evaluatePolicy` asks each step in turn and the first
// verdict stands; docs/policy.md's table is generated from the `doc` strings (scripts/generate-policy-doc.ts)
// and test/policy/order.test.ts runs each step's examples and checks that this step is the one deciding.
// Only `ask` becomes an approval. The CLI runs in its `default` permission mode, so every call it wants to
// confirm reaches the policy; calls the CLI allows by itself (read-only commands, reads inside the cwd)
// never do, so deny rules cannot block those.
import type { ThreadMode } from '../store/records.js';
import { EDIT_TOOLS, cliCallsSensitive } from './cli-verdict.js';
import type { CliContext, CompiledPolicy, PolicyVerdict } from './verdict.js';
import { protectedEntryFor, type ProtectedEntry } from './protected-paths.js';
import { isInside, lexicalAndReal } from './real-paths.js';
import { allowingRule, commandMatches, couldMatchWhenRun, ruleMatches, shellAllowable } from './rules.js';
import { allowedRunners, runnerManifestFor } from './runner-manifests.js';
import { literalWords, unclassifiedWord } from './argument-table.js';
import type { ShellAnalysis } from './shell-commands.js';

/** One permission request as the steps see it; `shell` is the parse of a Bash command, once. */
export interface PolicyRequest {
  readonly policy: CompiledPolicy;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  readonly cli: CliContext;
  readonly shell: ShellAnalysis | undefined;
}

/** A request this step decides, as docs/policy.md shows it; the tests run it against a temporary cwd. */
export interface PolicyExample {
  readonly mode: ThreadMode;
  readonly rules?: { readonly allow?: readonly string[]; readonly deny?: readonly string[] };
  readonly toolName: string;
  /** Paths in it are relative to the cwd. */
  readonly input: Record<string, unknown>;
  readonly cli?: CliContext;
  readonly behavior: PolicyVerdict['behavior'];
}

export type PolicyStepId = 'deny-rule' | 'protected-write' | 'unseeable-under-deny' | 'allow-rule' | 'mode';

export interface PolicyStep {
  readonly id: PolicyStepId;
  /** When the step decides, and what: one sentence for docs/policy.md. */
  readonly doc: string;
  readonly examples: readonly PolicyExample[];
  /** The verdict, or undefined to leave the request to the next step. */
  decide(request: PolicyRequest): PolicyVerdict | undefined;
}

/** What each mode decides when no earlier step did (the last step). */
export const MODE_DOCS: Readonly<Record<ThreadMode, string>> = {
  supervised: 'asks for everything the CLI asks for',
  'auto-edits':
    'allows `Edit`, `Write`, `MultiEdit` and `NotebookEdit` whose target is inside the cwd (resolved, symlinks followed); asks for the rest',
  'full-access': 'allows every call',
};

export const POLICY_ORDER: readonly PolicyStep[] = [
  {
    id: 'deny-rule',
    doc: 'A **deny rule** that matches denies (for Bash: any simple command of the parse, seen through wrappers).',
    examples: [
      {
        mode: 'full-access',
        rules: { deny: ['Bash(rm:*)'] },
        toolName: 'Bash',
        input: { command: 'ls && rm -f a' },
        behavior: 'deny',
      },
      {
        mode: 'full-access',
        rules: { deny: ['Write'] },
        toolName: 'Write',
        input: { file_path: '.git/config' },
        behavior: 'deny',
      },
    ],
    decide({ policy, toolName, input, shell }) {
      const denied = policy.deny.find((rule) =>
        ruleMatches(rule, toolName, input, policy.cwd, 'deny', shell),
      );
      if (denied === undefined) return undefined;
      return {
        behavior: 'deny',
        source: 'rule',
        rule: denied.source,
        reason: `denied by rule ${denied.source}`,
      };
    },
  },
  {
    id: 'protected-write',
    doc: "A **protected write** asks, whatever the mode or the allow rules say: the CLI called the file sensitive, or a target (an edit tool's file, a Bash redirection or a file a command writes through its arguments, the CLI's `blocked_path`) is in the protected-path table, or is a manifest of a runner an allow rule lets run (`package.json` while `Bash(npm test)` is allowed, the Makefile under `Bash(make:*)`: runner-manifests.ts).",
    examples: [
      {
        mode: 'full-access',
        toolName: 'Write',
        input: { file_path: '.git/hooks/pre-commit' },
        behavior: 'ask',
      },
      {
        mode: 'full-access',
        rules: { allow: ['Bash'] },
        toolName: 'Bash',
        input: { command: 'echo x > .mcp.json' },
        behavior: 'ask',
      },
      {
        mode: 'auto-edits',
        toolName: 'Edit',
        input: { file_path: 'notes.txt' },
        cli: { decisionReason: 'Claude requested permissions to edit notes.txt which is a sensitive file.' },
        behavior: 'ask',
      },
      {
        mode: 'auto-edits',
        rules: { allow: ['Bash(npm test)'] },
        toolName: 'Edit',
        input: { file_path: 'packages/app/package.json' },
        behavior: 'ask',
      },
    ],
    decide({ policy, toolName, input, cli, shell }) {
      const guarded = protectedReason(policy, toolName, input, cli, shell);
      return guarded === undefined ? undefined : { behavior: 'ask', reason: guarded };
    },
  },
  {
    id: 'unseeable-under-deny',
    doc: "A **Bash command with a part the parse cannot see through** (`eval`, `source`, a variable as the program, code or a program filled in by `xargs -I%` or find's `{}`, a parse error, …) asks while the thread has deny rules for Bash, and so does a command whose words only known when it runs could make a deny rule match (`git $X`, `… | xargs git` under `Bash(git push:*)`): a deny rule cannot be checked against what cannot be seen.",
    examples: [
      {
        mode: 'full-access',
        rules: { deny: ['Bash(rm:*)'] },
        toolName: 'Bash',
        input: { command: 'eval "$X"' },
        behavior: 'ask',
      },
      {
        mode: 'full-access',
        rules: { deny: ['Bash(rm:*)'] },
        toolName: 'Bash',
        input: { command: 'echo rm a | xargs -I% sh -c %' },
        behavior: 'ask',
      },
      {
        mode: 'full-access',
        rules: { deny: ['Bash(git push:*)'] },
        toolName: 'Bash',
        input: { command: 'echo push | xargs git' },
        behavior: 'ask',
      },
    ],
    decide({ policy, shell }) {
      if (shell === undefined) return undefined;
      const rules = policy.deny.filter((rule) => rule.tool.test('Bash'));
      if (rules.length === 0) return undefined;
      if (shell.opaque.length > 0)
        return { behavior: 'ask', reason: `deny rules for Bash cannot be checked: ${shell.opaque[0] ?? ''}` };
      for (const simple of shell.commands) {
        const rule = rules.find((candidate) => couldMatchWhenRun(candidate, simple));
        if (rule !== undefined)
          return {
            behavior: 'ask',
            reason: `deny rule ${rule.source} could match ${simple.words.join(' ')}${simple.appended ? ' …' : ''} once its words are known`,
          };
      }
      return undefined;
    },
  },
  {
    id: 'allow-rule',
    doc: 'An **allow rule** allows; a Bash command needs every simple command covered and nothing else that runs or writes. Where the operating system does not hold the protected paths (no sandbox), a prefix rule covers past the words it names only options and operands that argument-table.ts knows write no file: the rest asks.',
    examples: [
      {
        mode: 'supervised',
        rules: { allow: ['Bash(git status:*)'] },
        toolName: 'Bash',
        input: { command: 'git status --short' },
        behavior: 'allow',
      },
      {
        mode: 'supervised',
        rules: { allow: ['Bash(git log:*)'] },
        toolName: 'Bash',
        input: { command: 'git log -1 --output=notes.txt' },
        behavior: 'ask',
      },
    ],
    decide(request) {
      const allowed = allowingRules(request);
      if (allowed === undefined) return undefined;
      if (typeof allowed !== 'string')
        return request.policy.mode === 'full-access'
          ? undefined
          : {
              behavior: 'ask',
              reason: `${allowed.rule} does not cover ${allowed.word}: with no sandbox here, an option or operand not known to write no file is asked`,
            };
      return { behavior: 'allow', source: 'rule', rule: allowed, reason: `allowed by rule ${allowed}` };
    },
  },
  {
    id: 'mode',
    doc: "The thread's **mode** decides the rest (below).",
    examples: [
      { mode: 'supervised', toolName: 'Write', input: { file_path: 'src/a.ts' }, behavior: 'ask' },
      { mode: 'auto-edits', toolName: 'Write', input: { file_path: 'src/a.ts' }, behavior: 'allow' },
      { mode: 'auto-edits', toolName: 'Bash', input: { command: 'npm test' }, behavior: 'ask' },
      { mode: 'full-access', toolName: 'Bash', input: { command: 'npm test' }, behavior: 'allow' },
    ],
    decide: modeVerdict,
  },
];

function modeVerdict({ policy, toolName, input }: PolicyRequest): PolicyVerdict {
  switch (policy.mode) {
    case 'full-access':
      return { behavior: 'allow', source: 'mode', rule: null, reason: 'full-access allows every tool call' };
    case 'auto-edits': {
      const target = editTarget(toolName, input);
      if (target !== undefined && isInside(policy.cwd, target))
        return {
          behavior: 'allow',
          source: 'mode',
          rule: null,
          reason: `auto-edits allows ${toolName} inside the cwd`,
        };
      return { behavior: 'ask', reason: 'auto-edits asks for everything but edits inside the cwd' };
    }
    case 'supervised':
      return { behavior: 'ask', reason: 'supervised asks for what the CLI asks for' };
  }
}

/**
 * The allow rule(s) covering the call: for Bash, one per simple command, joined; else the first match.
 * With no sandbox, a Bash command whose rules match but leave a word unclassified (argument-table.ts)
 * is not covered: that word and the rule are returned, for the question's reason.
 */
function allowingRules({
  policy,
  toolName,
  input,
  shell,
}: PolicyRequest): string | { rule: string; word: string } | undefined {
  if (shell === undefined) return allowingRule(policy.allow, toolName, input, policy.cwd);
  const whole = policy.allow.find((rule) => rule.tool.test('Bash') && rule.pattern === undefined);
  if (whole !== undefined) return whole.source;
  if (shellAllowable(shell) !== undefined) return undefined;
  const used = new Set<string>();
  let narrowed: { rule: string; word: string } | undefined;
  for (const simple of shell.commands) {
    const matching = policy.allow.filter((candidate) => commandMatches(candidate, simple, 'allow'));
    const rule = policy.osEnforced
      ? matching[0]
      : matching.find(
          (candidate) => unclassifiedWord(simple.words, literalWords(candidate.pattern ?? '')) === undefined,
        );
    if (rule === undefined) {
      const first = matching[0];
      if (first === undefined) return undefined;
      const word = unclassifiedWord(simple.words, literalWords(first.pattern ?? '')) ?? '';
      narrowed ??= { rule: first.source, word };
      continue;
    }
    used.add(rule.source);
  }
  return narrowed ?? [...used].join(', ');
}

/** Why this call writes somewhere no mode or allow rule may allow; undefined when it does not. */
function protectedReason(
  policy: CompiledPolicy,
  toolName: string,
  input: Record<string, unknown>,
  cli: CliContext,
  shell: ShellAnalysis | undefined,
): string | undefined {
  if (cliCallsSensitive(toolName, cli.decisionReason))
    return `the CLI marks this as sensitive: ${cli.decisionReason ?? ''}`;
  const targets: string[] = [];
  const target = editTarget(toolName, input);
  if (target !== undefined) targets.push(target);
  if (shell !== undefined) targets.push(...shell.writes);
  // The CLI's blocked path for a command is where it found it would write or read outside what it allows
  // by itself (`sed -i … f`, `cp a f`, `cat f`): a read of a protected file this way is asked too.
  const writing = shell !== undefined || target !== undefined;
  if (writing && typeof cli.blockedPath === 'string' && cli.blockedPath !== '') targets.push(cli.blockedPath);
  for (const path of targets) {
    const entry = protectedPath(policy.cwd, path);
    if (entry !== undefined) return `${path} is protected (${entry.path}: ${entry.reason})`;
  }
  const runners = allowedRunners(policy.allow);
  if (runners.size === 0) return undefined;
  for (const path of targets) {
    const { lexical, real } = lexicalAndReal(policy.cwd, path);
    const manifest = runnerManifestFor(lexical, runners) ?? runnerManifestFor(real, runners);
    if (manifest !== undefined)
      return `${path} is what an allowed runner runs (${manifest.manifest}, allowed by ${manifest.rule}): protected in this thread`;
  }
  return undefined;
}

/** The table entry covering `path` as written, resolved against the cwd, or where it really leads. */
function protectedPath(cwd: string, path: string): ProtectedEntry | undefined {
  const { lexical, real } = lexicalAndReal(cwd, path);
  return protectedEntryFor(path) ?? protectedEntryFor(lexical) ?? protectedEntryFor(real);
}

function editTarget(toolName: string, input: Record<string, unknown>): string | undefined {
  if (!EDIT_TOOLS.has(toolName)) return undefined;
  const path = toolName === 'NotebookEdit' ? input.notebook_path : input.file_path;
  return typeof path === 'string' && path !== '' ? path : undefined;
}
