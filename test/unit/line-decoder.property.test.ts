import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { LineDecoder } from '../../src/transport/line-decoder.js';

// Any list of JSON objects, written as NDJSON (LF or CRLF, blank lines between), cut into arbitrary chunks,
// must decode to exactly the same objects with no diagnostics. Time-boxed: it runs as many cases as fit.

const frameArbitrary = fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue({ stringUnit: 'binary' }), {
  maxKeys: 6,
});

const streamArbitrary = fc
  .array(fc.tuple(frameArbitrary, fc.constantFrom('\n', '\r\n', '\n\n', '\n \t\r\n')), { maxLength: 20 })
  .chain((entries) => {
    const bytes = Buffer.from(entries.map(([frame, end]) => JSON.stringify(frame) + end).join(''));
    const cuts = fc.uniqueArray(fc.integer({ min: 0, max: bytes.length }), { maxLength: 30 });
    return fc.tuple(fc.constant(entries.map(([frame]) => frame)), fc.constant(bytes), cuts);
  });

test('random frames cut into random chunks decode to the same frames', () => {
  fc.assert(
    fc.property(streamArbitrary, ([expected, bytes, cuts]) => {
      const frames: unknown[] = [];
      const diagnostics: unknown[] = [];
      const decoder = new LineDecoder({
        onFrame: (frame) => frames.push(frame),
        onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
      });
      let start = 0;
      for (const cut of [...cuts].sort((a, b) => a - b)) {
        decoder.push(bytes.subarray(start, cut));
        start = cut;
      }
      decoder.push(bytes.subarray(start));
      decoder.end();
      // What JSON itself round-trips (e.g. -0 becomes 0) is what the decoder must produce.
      assert.deepEqual(frames, JSON.parse(JSON.stringify(expected)));
      assert.deepEqual(diagnostics, []);
    }),
    { plugins: [fc.interruptAfterTimeLimit(3000)], numRuns: Number.MAX_SAFE_INTEGER },
  );
});
