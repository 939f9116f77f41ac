// A node:test reporter that runs beside spec and keeps only the failures: one JSON line each (file,
// test name, the error as util.inspect prints it). scripts/test.mjs prints them again once every pass has
// ended: in a run of three passes, the first pass's failures would otherwise be far above the end of the
// output, where a CI log's tail no longer reaches.
import { inspect } from 'node:util';

/** Enough of an error to say what failed and where; a stack's first lines name the assertion. */
const MAX_ERROR_LINES = 40;

/** A stack frame inside Node itself (the test runner, promises): noise beside the test's own frames. */
const NODE_FRAME = /^\s+at (?:.*\(node:.*\)|node:.*|new Promise \(<anonymous>\)|Array\.\w+ \(<anonymous>\))$/;

export default async function* failuresReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const { name, file, details } = event.data;
    const error = details?.error;
    // A suite fails because a test in it failed: that test has its own line already.
    if (error?.failureType === 'subtestsFailed') continue;
    // Errors thrown in a test file's process arrive wrapped (ERR_TEST_FAILURE); the cause is the test's.
    const thrown = error?.code === 'ERR_TEST_FAILURE' && error.cause !== undefined ? error.cause : error;
    const text = inspect(thrown, { depth: 4, breakLength: 120 })
      .split('\n')
      .filter((line) => !NODE_FRAME.test(line))
      .slice(0, MAX_ERROR_LINES);
    yield `${JSON.stringify({ file, name, error: text.join('\n') })}\n`;
  }
}
