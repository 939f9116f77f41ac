import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FrameTooLargeError } from '../../src/protocol/errors.js';
import { LineDecoder, type LineDiagnostic } from '../../src/transport/line-decoder.js';

function decoder(maxFrameBytes?: number) {
  const frames: Record<string, unknown>[] = [];
  const diagnostics: LineDiagnostic[] = [];
  const instance = new LineDecoder({
    onFrame: (frame) => frames.push(frame),
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }),
  });
  return { instance, frames, diagnostics };
}

function decodeChunks(chunks: readonly Buffer[], maxFrameBytes?: number) {
  const result = decoder(maxFrameBytes);
  for (const chunk of chunks) result.instance.push(chunk);
  result.instance.end();
  return result;
}

const SAMPLE = [
  { type: 'system', subtype: 'init', text: 'héllo wörld 日本語 😀' },
  { type: 'assistant', message: { content: [{ type: 'text', text: '  padded  \t text  ' }] } },
  { type: 'result', n: 3, nested: { empty: {}, list: [1, 'two', null] } },
];

describe('LineDecoder', () => {
  test('a stream split at every byte offset decodes to the same frames', () => {
    const bytes = Buffer.from(SAMPLE.map((frame) => `${JSON.stringify(frame)}\n`).join(''));
    for (let cut = 0; cut <= bytes.length; cut += 1) {
      const { frames, diagnostics } = decodeChunks([bytes.subarray(0, cut), bytes.subarray(cut)]);
      assert.deepEqual(frames, SAMPLE, `cut at ${cut}`);
      assert.deepEqual(diagnostics, []);
    }
  });

  test('one byte per chunk decodes to the same frames', () => {
    const bytes = Buffer.from(SAMPLE.map((frame) => `${JSON.stringify(frame)}\n`).join(''));
    const chunks = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    assert.deepEqual(decodeChunks(chunks).frames, SAMPLE);
  });

  test('CRLF line endings, including a CR and LF in different chunks', () => {
    const { frames, diagnostics } = decodeChunks([
      Buffer.from('{"a":1}\r\n{"b":2}\r'),
      Buffer.from('\n{"c":"x\\r\\n"}\r\n'),
    ]);
    assert.deepEqual(frames, [{ a: 1 }, { b: 2 }, { c: 'x\r\n' }]);
    assert.deepEqual(diagnostics, []);
  });

  test('whitespace inside lines is preserved and blank lines are skipped silently', () => {
    const { frames, diagnostics } = decodeChunks([
      Buffer.from('\n   \n\t\n  {"text":"  two  spaces\\tand tab  "}  \n\r\n{"x":" "}\n'),
    ]);
    assert.deepEqual(frames, [{ text: '  two  spaces\tand tab  ' }, { x: ' ' }]);
    assert.deepEqual(diagnostics, []);
  });

  test('multi-byte UTF-8 characters split across chunks arrive intact', () => {
    const text = 'é € 😀 𐍈 日本';
    const bytes = Buffer.from(`${JSON.stringify({ text })}\n`);
    // Split inside every multi-byte character: one byte per chunk covers all such positions at once.
    const oneByte = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    assert.deepEqual(decodeChunks(oneByte).frames, [{ text }]);
    const emoji = bytes.indexOf(Buffer.from('😀'));
    for (let inside = emoji + 1; inside < emoji + 4; inside += 1) {
      const { frames } = decodeChunks([bytes.subarray(0, inside), bytes.subarray(inside)]);
      assert.deepEqual(frames, [{ text }]);
    }
  });

  test('lines that are not JSON objects become diagnostics, never errors', () => {
    const long = `not json ${'z'.repeat(500)}`;
    const { frames, diagnostics } = decodeChunks([
      Buffer.from(`debug: starting\n{"ok":1}\n42\n[1,2]\nnull\n"str"\n{"broken":\n${long}\n{"ok":2}\n`),
    ]);
    assert.deepEqual(frames, [{ ok: 1 }, { ok: 2 }]);
    assert.deepEqual(
      diagnostics.map((d) => [d.kind, d.excerpt.slice(0, 20), d.byteLength]),
      [
        ['non_json', 'debug: starting', 15],
        ['non_json', '42', 2],
        ['non_json', '[1,2]', 5],
        ['non_json', 'null', 4],
        ['non_json', '"str"', 5],
        ['non_json', '{"broken":', 10],
        ['non_json', long.slice(0, 20), long.length],
      ],
    );
    assert.equal(diagnostics.at(-1)?.excerpt.length, 200);
  });

  test('an oversized line is refused while still partial, with limit and size', () => {
    const { instance, frames } = decoder(1024);
    instance.push(Buffer.from('{"before":true}\n{"pad":"'));
    instance.push(Buffer.alloc(512, 'x'));
    let caught: unknown;
    try {
      // No newline yet: the partial line alone crosses the limit.
      instance.push(Buffer.alloc(600, 'x'));
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof FrameTooLargeError);
    assert.equal(caught.code, 'FRAME_TOO_LARGE');
    assert.equal(caught.limit, 1024);
    assert.equal(caught.size, 8 + 512 + 600);
    assert.deepEqual(frames, [{ before: true }]);
    assert.equal(instance.pendingBytes, 0);
  });

  test('an oversized complete line is refused after the frames before it in the same chunk', () => {
    const { instance, frames } = decoder(16);
    assert.throws(
      () => instance.push(Buffer.from(`{"a":1}\n{"pad":"${'y'.repeat(20)}"}\n{"b":2}\n`)),
      (error: unknown) => error instanceof FrameTooLargeError && error.limit === 16 && error.size === 30,
    );
    assert.deepEqual(frames, [{ a: 1 }]);
  });

  test('a line of exactly the limit is accepted, with LF or CRLF', () => {
    const line = '{"pad":"123456"}';
    assert.deepEqual(decodeChunks([Buffer.from(`${line}\n`)], line.length).frames, [{ pad: '123456' }]);
    const crlf = [Buffer.from(`${line}\r`), Buffer.from('\n')];
    assert.deepEqual(decodeChunks(crlf, line.length).frames, [{ pad: '123456' }]);
  });

  test('a truncated last line is reported at end(), not delivered', () => {
    const { instance, frames, diagnostics } = decoder();
    instance.push(Buffer.from('{"complete":true}\n{"type":"partial","te'));
    assert.deepEqual(diagnostics, []);
    instance.end();
    assert.deepEqual(frames, [{ complete: true }]);
    assert.deepEqual(diagnostics, [
      { kind: 'truncated_tail', excerpt: '{"type":"partial","te', byteLength: 21 },
    ]);
  });

  test('a tail that happens to be valid JSON is still truncated; a blank tail is not reported', () => {
    const valid = decodeChunks([Buffer.from('{"a":1}\n{"b":2}')]);
    assert.deepEqual(valid.frames, [{ a: 1 }]);
    assert.deepEqual(
      valid.diagnostics.map((d) => d.kind),
      ['truncated_tail'],
    );
    const blank = decodeChunks([Buffer.from('{"a":1}\n  ')]);
    assert.deepEqual(blank.diagnostics, []);
  });
});
