// src/sdk-tools.ts is generated from the captured tool schemas: it must be what the generator makes of
// the fixture today (run `node --import tsx scripts/generate-sdk-tools.ts` after changing either), and it
// must give every captured tool the official package has a type for.
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
import { readOutputs } from '../../scripts/infer-output-types.js';

const fixture = JSON.parse(readFileSync(FIXTURE_PATH, 'utf8')) as Fixture;
const officialTools = readFileSync(
  new URL('../../node_modules/@anthropic-ai/claude-agent-sdk/sdk-tools.d.ts', import.meta.url),
  'utf8',
);

describe('src/sdk-tools.ts', () => {
  it('is up to date with the fixture', async () => {
    assert.equal(readFileSync(OUTPUT_PATH, 'utf8'), await generateSdkTools(fixture, readOutputs()));
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

  it('infers the output types from the results seen: fields in every result required, others optional', async () => {
    const text = await generateSdkTools(
      { claudeCodeVersion: 'test', tools: { Grep: { type: 'object', properties: {} } } },
      {
        claudeCodeVersion: 'test',
        tools: {
          Grep: [
            { mode: 'content', filenames: [], content: 'a:1', numLines: 1, '-odd': null },
            { mode: 'count', filenames: ['a'], numMatches: 2, '-odd': 'x' },
          ],
          NotAnOfficialTool: [{ a: 1 }],
        },
      },
    );
    assert.match(
      text,
      /export interface GrepOutput \{\n {2}mode: string;\n {2}filenames: string\[\];\n {2}content\?: string;/,
    );
    assert.match(text, /numMatches\?: number;/);
    assert.match(text, /'-odd': string \| null;/);
    assert.doesNotMatch(text, /NotAnOfficialTool/);
    assert.match(text, /export type ToolOutputSchemas = GrepOutput;/);
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
    assert.match(text, /state\?: 'a' \| 'b' \| 'gone';/);
    assert.match(text, /export interface EnterPlanModeInput \{\}/);
    assert.doesNotMatch(text, /NotAnOfficialTool/);
    assert.match(text, /export type ToolInputSchemas = BashInput \| EnterPlanModeInput;/);
  });
});
