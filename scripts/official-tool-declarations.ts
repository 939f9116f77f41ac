// The declarations of the official Agent SDK's `sdk-tools.d.ts`, read at generation time by
// scripts/generate-sdk-tools.ts. They are the published contract for what Claude Code does not send us as a
// schema: the inputs of tools a session run offline is not offered, and every tool's result (`*Output`;
// Claude Code publishes no output schema, not to the model and not in `claude mcp serve`'s tool list). The
// generated file carries their text, so Warden's `./sdk-tools` never imports the official package, which
// an application may not have installed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

export const OFFICIAL_PACKAGE_DIR = fileURLToPath(
  new URL('../node_modules/@anthropic-ai/claude-agent-sdk/', import.meta.url),
);

export interface Declaration {
  readonly name: string;
  /** The declaration as written, with its doc comment. */
  readonly text: string;
}

export interface OfficialDeclarations {
  /** The official package's version. */
  readonly version: string;
  /** In the order of the file. */
  readonly declarations: readonly Declaration[];
}

/** The top-level declarations of a declaration file's text, each with its doc comment. */
export function parseDeclarations(text: string): Declaration[] {
  const source = ts.createSourceFile('sdk-tools.d.ts', text, ts.ScriptTarget.Latest, true);
  const declarations: Declaration[] = [];
  for (const statement of source.statements) {
    if (!ts.isInterfaceDeclaration(statement) && !ts.isTypeAliasDeclaration(statement))
      throw new Error(`unexpected statement in sdk-tools.d.ts: ${statement.getText(source).slice(0, 80)}`);
    const docs = ts
      .getJSDocCommentsAndTags(statement)
      .filter(ts.isJSDoc)
      .map((doc) => doc.getText(source));
    declarations.push({ name: statement.name.text, text: [...docs, statement.getText(source)].join('\n') });
  }
  return declarations;
}

export function readOfficialDeclarations(packageDir = OFFICIAL_PACKAGE_DIR): OfficialDeclarations {
  const manifest = JSON.parse(readFileSync(`${packageDir}/package.json`, 'utf8')) as { version: string };
  return {
    version: manifest.version,
    declarations: parseDeclarations(readFileSync(`${packageDir}/sdk-tools.d.ts`, 'utf8')),
  };
}
