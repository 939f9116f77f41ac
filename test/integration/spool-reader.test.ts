// The spool reader: every line once with the offset just past it, resumable from any committed offset,
// woken by growth, ended by finish() with a half-written tail reported, and space released behind it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

import { FrameTooLargeError } from '../../src/protocol/errors.js';
import { SpoolReader, type SpoolLine } from '../../src/transport/spool-reader.js';
import { releaseProcessed } from '../../src/transport/spool-space.js';
import { within } from './transport-helpers.js';

const root = mkdtempSync(join(tmpdir(), 'warden-spool-'));
after(() => rmSync(root, { recursive: true, force: true }));
let files = 0;
function spoolWith(content: string | Buffer): string {
  const path = join(root, `spool-${files++}`);
  writeFileSync(path, content);
  return path;
}

async function readAll(reader: SpoolReader): Promise<SpoolLine[]> {
  const lines: SpoolLine[] = [];
  for await (const line of reader.lines()) lines.push(line);
  return lines;
}

describe('SpoolReader', () => {
  test('gives each line with the offset just past it, and resumes from a committed offset', async () => {
    const content = '{"a":1}\n{"b":"é"}\r\n\n{"c":3}\n';
    const path = spoolWith(content);
    const reader = new SpoolReader({ path });
    reader.finish();
    const lines = await readAll(reader);
    assert.deepEqual(
      lines.map((l) => l.text),
      ['{"a":1}', '{"b":"é"}', '{"c":3}'],
    );
    const bytes = Buffer.from(content);
    assert.deepEqual(
      lines.map((l) => l.end),
      [8, 8 + Buffer.byteLength('{"b":"é"}\r\n'), bytes.length],
    );
    assert.equal(reader.offset, bytes.length);

    const resumed = new SpoolReader({ path, offset: lines[0]?.end ?? 0 });
    resumed.finish();
    assert.deepEqual(
      (await readAll(resumed)).map((l) => l.text),
      ['{"b":"é"}', '{"c":3}'],
    );
  });

  test('waits for the writer and delivers what it appends, in order, exactly once', async () => {
    const path = spoolWith('');
    const count = 5_000;
    const writer = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); const fd = fs.openSync(process.argv[1], 'a');
         for (let i = 0; i < ${count}; i++) fs.writeSync(fd, JSON.stringify({ i, pad: 'x'.repeat(i % 300) }) + '\\n');`,
        path,
      ],
      { stdio: 'ignore' },
    );
    const reader = new SpoolReader({ path, pollMs: 20 });
    writer.once('exit', () => reader.finish());
    const lines = await within(20_000, readAll(reader), 'reading the growing spool');
    assert.equal(lines.length, count);
    lines.forEach((line, i) => assert.equal((JSON.parse(line.text) as { i: number }).i, i));
    assert.equal(reader.offset, statSync(path).size);
  });

  test('a line longer than one read, with characters split across reads, arrives whole', async () => {
    const long = 'ü'.repeat(70_000);
    const path = spoolWith(`${JSON.stringify({ long })}\n{"next":true}\n`);
    const reader = new SpoolReader({ path });
    reader.finish();
    const lines = await readAll(reader);
    assert.equal((JSON.parse(lines[0]?.text ?? '{}') as { long: string }).long, long);
    assert.equal(lines[1]?.text, '{"next":true}');
  });

  test('a half-written last line is reported, not delivered, and the offset stays before it', async () => {
    const path = spoolWith('{"whole":1}\n{"half":');
    const tails: number[] = [];
    const reader = new SpoolReader({ path, onTruncatedTail: (bytes) => tails.push(bytes) });
    reader.finish();
    const lines = await readAll(reader);
    assert.deepEqual(
      lines.map((l) => l.text),
      ['{"whole":1}'],
    );
    assert.deepEqual(tails, [Buffer.byteLength('{"half":')]);
    assert.equal(reader.offset, 12);
  });

  test('close() stops a waiting reader; the lines after it stay for the next reader', async () => {
    const path = spoolWith('{"one":1}\n');
    const reader = new SpoolReader({ path, pollMs: 10_000 });
    const iterator = reader.lines();
    const first = await iterator.next();
    assert.equal(first.value?.text, '{"one":1}');
    const pending = iterator.next();
    reader.close();
    assert.equal((await within(2_000, pending, 'close of a waiting reader')).done, true);
    appendFileSync(path, '{"two":2}\n');
    const next = new SpoolReader({ path, offset: reader.offset });
    next.finish();
    assert.deepEqual(
      (await readAll(next)).map((l) => l.text),
      ['{"two":2}'],
    );
  });

  test('a line over maxFrameBytes fails with FrameTooLargeError after the lines before it', async () => {
    const path = spoolWith(`{"ok":1}\n${'x'.repeat(5_000)}\n`);
    const reader = new SpoolReader({ path, maxFrameBytes: 1_000 });
    reader.finish();
    const seen: string[] = [];
    await assert.rejects(
      async () => {
        for await (const line of reader.lines()) seen.push(line.text);
      },
      (error: unknown) => error instanceof FrameTooLargeError && error.code === 'FRAME_TOO_LARGE',
    );
    assert.deepEqual(seen, ['{"ok":1}']);
  });

  test('rejects a bad starting offset at once', () => {
    assert.throws(() => new SpoolReader({ path: 'x', offset: -1 }), TypeError);
  });
});

describe('releaseProcessed', () => {
  test('frees the processed part on disk while offsets and later lines stay valid', async (t) => {
    const line = `${JSON.stringify({ pad: 'y'.repeat(1000) })}\n`;
    const path = spoolWith(line.repeat(2_000));
    const before = statSync(path);
    const processed = line.length * 1_990;
    const outcome = await releaseProcessed(path, processed);
    if (outcome === 'unsupported') return t.skip('this file system cannot punch holes');
    assert.equal(outcome, 'released');
    const afterRelease = statSync(path);
    assert.equal(afterRelease.size, before.size, 'the length, and so every offset, is kept');
    assert.ok(
      afterRelease.blocks * 512 < before.blocks * 512 - 1_900_000,
      `disk use fell from ${before.blocks * 512} to ${afterRelease.blocks * 512} bytes`,
    );
    const reader = new SpoolReader({ path, offset: processed });
    reader.finish();
    const rest = await readAll(reader);
    assert.equal(rest.length, 10);
    assert.equal(rest[0]?.text, line.trimEnd());
    assert.equal(await releaseProcessed(path, 100), 'nothing_to_release');
  });
});
