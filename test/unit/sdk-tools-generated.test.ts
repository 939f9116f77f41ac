// src/sdk-tools.ts is generated from the captured tool schemas and the official declarations: it must be
// what the generator makes of them today (run `node --import tsx scripts/generate-sdk-tools.ts` after
// changing either), give every captured tool the official package has a type for, and every official name.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import {
  FIXTURE_PATH,
  OUTPUT_PATH,
  TYPE_NAMES,
  generateSdkTools,
  type Fixture,
} from '../../scripts/generate-sdk-tools.js';
import { parseDeclarations, readOfficialDeclarations } from '../../scripts/official-tool-declarations.js';

const fixture = JSON.parse(readFileSync(FIXTURE_PATH, 'utf8')) as Fixture;
const officialTools = readFileSync(
  new URL('../../node_modules/@anthropic-ai/claude-agent-sdk/sdk-tools.d.ts', import.meta.url),
  'utf8',
);

describe('src/sdk-tools.ts', () => {
  it('is up to date with the fixture', async () => {
    assert.equal(readFileSync(OUTPUT_PATH, 'utf8'), await generateSdkTools(fixture));
  });

  it('has a type for each captured tool the official package types, under the official name', async () => {
    const generated = await generateSdkTools(fixture);
    const captured = Object.keys(fixture.tools).filter((tool) => TYPE_NAMES[tool] !== undefined);
    assert.ok(captured.length >= 20, `only ${captured.length} tools captured`);
    for (const tool of captured) {
      const name = TYPE_NAMES[tool]!;
      assert.match(generated, new RegExp(`export interface ${name} `), tool);
      assert.match(officialTools, new RegExp(`export interface ${name} `), `${name} is an official name`);
    }
  });

  it('declares every official name, in the official order', async () => {
    const official = readOfficialDeclarations();
    const names = parseDeclarations(await generateSdkTools(fixture, official)).map(({ name }) => name);
    assert.ok(
      official.declarations.length > 80,
      `only ${official.declarations.length} official declarations`,
    );
    assert.deepEqual(
      names,
      official.declarations.map(({ name }) => name),
    );
  });

  it('generates the inputs the fixture has and copies every other official declaration', async () => {
    const official = {
      version: 'test',
      declarations: parseDeclarations(
        [
          'export type ToolInputSchemas = BashInput | McpInput;',
          '/** Official docs. */',
          'export interface BashInput {\n  command: string;\n  official_only?: boolean;\n}',
          'export interface McpInput {\n  [k: string]: unknown;\n}',
          'export interface BashOutput {\n  stdout: string;\n}',
        ].join('\n'),
      ),
    };
    const text = await generateSdkTools(
      {
        claudeCodeVersion: 'test',
        tools: { Bash: { type: 'object', properties: { command: { type: 'string' } } } },
      },
      official,
    );
    assert.match(text, /export type ToolInputSchemas = BashInput \| McpInput;/);
    assert.match(
      text,
      /\/\*\* The input of the `Bash` tool. \*\/\nexport interface BashInput \{\n {2}command\?: string;/,
    );
    assert.doesNotMatch(text, /official_only|Official docs/);
    assert.match(text, /export interface McpInput \{\n {2}\[k: string\]: unknown;\n\}/);
    assert.match(text, /export interface BashOutput \{\n {2}stdout: string;\n\}/);
    assert.doesNotMatch(text, /^import /m);
  });

  it('maps JSON Schema to TypeScript for the subset the schemas use', async () => {
    const text = await generateSdkTools({
      claudeCodeVersion: 'test',
      tools: {
        Bash: {
          type: 'object',
          properties: {
            command: { type: 'string', allOf: [{ pattern: 'x' }] },
            timeout: { type: 'integer' },
            mode: { type: 'string', enum: ['a', 'b'] },
            tags: { type: 'array', items: { type: 'string' } },
            env: {
              type: 'object',
              propertyNames: { type: 'string' },
              additionalProperties: { type: 'number' },
            },
            'odd-name': { type: 'boolean' },
            pair: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 2 },
            some: { type: 'array', items: { type: 'number' }, minItems: 1 },
            many: { type: 'array', items: { type: 'number' }, maxItems: 32 },
            state: {
              anyOf: [
                { type: 'string', enum: ['a', 'b'] },
                { type: 'string', const: 'gone' },
              ],
            },
          },
          required: ['command'],
          additionalProperties: false,
        },
        EnterPlanMode: { type: 'object', properties: {}, additionalProperties: false },
        NotAnOfficialTool: { type: 'object', properties: {} },
      },
    });
    assert.match(text, /export interface BashInput \{\n {2}command: string;\n {2}timeout\?: number;/);
    assert.match(text, /mode\?: 'a' \| 'b';/);
    assert.match(text, /tags\?: string\[\];/);
    assert.match(text, /env\?: \{\n\s+\[k: string\]: number;\n\s+\};/);
    assert.match(text, /'odd-name'\?: boolean;/);
    assert.match(text, /pair\?: \[string\] \| \[string, string\];/);
    assert.match(text, /some\?: \[number, \.\.\.number\[\]\];/);
    assert.match(text, /many\?: number\[\];/);
    assert.match(text, /state\?: 'a' \| 'b' \| 'gone';/);
    assert.match(text, /export interface EnterPlanModeInput \{\}/);
    assert.doesNotMatch(text, /NotAnOfficialTool/);
  });
});
