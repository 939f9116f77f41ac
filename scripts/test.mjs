#!/usr/bin/env node
// Runs the test suite with node:test through tsx. Node 20 cannot glob test files itself, so this script
// lists them. Usage: node scripts/test.mjs [folder-or-substring ...]  (e.g. `npm test -- unit e2e/sdk`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const filters = process.argv.slice(2);
const all = readdirSync('test', { recursive: true })
  .map((entry) => join('test', String(entry)))
  .filter((file) => file.endsWith('.test.ts'))
  .sort();
const files = filters.length === 0 ? all : all.filter((file) => filters.some((f) => file.includes(f)));
if (files.length === 0) {
  console.error(`no test files match ${JSON.stringify(filters)}`);
  process.exit(1);
}

const concurrency = process.env.WARDEN_TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
