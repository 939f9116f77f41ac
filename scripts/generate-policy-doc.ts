// Writes the generated parts of docs/policy.md from the tables in src/policy — the decision order with its
// examples, the modes, the protected-path table, the deliberately unprotected files — and the canUseTool
// example from test/policy/can-use-tool-example.ts, so that the page cannot drift from the code.
// Each part sits between `<!-- BEGIN generated:NAME -->` and `<!-- END generated:NAME -->`; the prose
// around them is written by hand.
//
//   node --import tsx scripts/generate-policy-doc.ts     rewrites docs/policy.md
//   renderPolicyDoc(text)                                the page with its parts regenerated (test/policy/doc)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import {
  MODE_DOCS,
  POLICY_ORDER,
  PROTECTED_GROUPS,
  PROTECTED_PATHS,
  THREAD_MODES,
  UNPROTECTED,
  type PolicyExample,
} from '../src/policy/index.js';

export const DOC_PATH = fileURLToPath(new URL('../docs/policy.md', import.meta.url));
export const EXAMPLE_PATH = fileURLToPath(new URL('../test/policy/can-use-tool-example.ts', import.meta.url));

/** The example's imports as an application writes them. */
const PACKAGE_IMPORTS: Readonly<Record<string, string>> = {
  '../../src/index.js': 'warden',
  '../../src/policy/index.js': 'warden/policy',
};

/** A table cell: `|` would end it, a newline the row. */
function cell(text: string): string {
  return text.replace(/\|/gu, '\\|').replace(/\n/gu, ' ');
}

function code(text: string): string {
  return `\`${text}\``;
}

function describeExample(example: PolicyExample): string {
  const rules = [
    ...(example.rules?.deny ?? []).map((rule) => `deny ${code(rule)}`),
    ...(example.rules?.allow ?? []).map((rule) => `allow ${code(rule)}`),
  ];
  const { input } = example;
  const subject = input.command ?? input.file_path ?? input.notebook_path;
  const call =
    typeof subject === 'string' ? `${code(example.toolName)} ${code(subject)}` : code(example.toolName);
  const cli = example.cli?.decisionReason == null ? '' : `, the CLI saying "${example.cli.decisionReason}"`;
  return `${code(example.mode)}${rules.length > 0 ? `, ${rules.join(', ')}` : ''}: ${call}${cli} → ${example.behavior}`;
}

function orderTable(): string {
  const rows = POLICY_ORDER.map(
    (step, index) =>
      `| ${index + 1} | ${code(step.id)} | ${cell(step.doc)} | ${step.examples.map((e) => cell(describeExample(e))).join('<br>')} |`,
  );
  return ['| # | Step | Decides | For example |', '|---|---|---|---|', ...rows].join('\n');
}

function modesTable(): string {
  const rows = THREAD_MODES.map((mode) => `| ${code(mode)} | ${cell(MODE_DOCS[mode])} |`);
  return ['| Mode | When no earlier step decided, it |', '|---|---|', ...rows].join('\n');
}

function protectedTable(): string {
  const rows = PROTECTED_PATHS.map((entry) => {
    const name = entry.kind === 'dir' ? `${entry.path}/` : entry.path;
    return `| ${cell(PROTECTED_GROUPS[entry.group])} | ${code(name)} | ${cell(entry.reason)} |`;
  });
  return ['| Group | Entry | Why a write there is dangerous |', '|---|---|---|', ...rows].join('\n');
}

function unprotectedTable(): string {
  const rows = UNPROTECTED.map((entry) => `| ${cell(entry.what)} | ${cell(entry.reason)} |`);
  return ['| Not protected | Why |', '|---|---|', ...rows].join('\n');
}

function example(): string {
  const source = readFileSync(EXAMPLE_PATH, 'utf8');
  const body = source.slice(source.indexOf('import '));
  const rewritten = body.replace(/from '([^']+)'/gu, (whole, path: string) =>
    PACKAGE_IMPORTS[path] === undefined ? whole : `from '${PACKAGE_IMPORTS[path]}'`,
  );
  return ['```ts', rewritten.trimEnd(), '```'].join('\n');
}

const PARTS: Readonly<Record<string, () => string>> = {
  order: orderTable,
  modes: modesTable,
  protected: protectedTable,
  unprotected: unprotectedTable,
  example,
};

/** `text` with every generated part replaced by what the tables say today; throws if a part is missing. */
export function renderPolicyDoc(text: string): string {
  let out = text;
  for (const [name, render] of Object.entries(PARTS)) {
    const begin = `<!-- BEGIN generated:${name} -->`;
    const end = `<!-- END generated:${name} -->`;
    const from = out.indexOf(begin);
    const to = out.indexOf(end);
    if (from === -1 || to < from)
      throw new TypeError(`docs/policy.md has no part ${name} (${begin} … ${end})`);
    out = `${out.slice(0, from + begin.length)}\n${render()}\n${out.slice(to)}`;
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(DOC_PATH, renderPolicyDoc(readFileSync(DOC_PATH, 'utf8')));
  console.log(`wrote ${DOC_PATH}`);
}
