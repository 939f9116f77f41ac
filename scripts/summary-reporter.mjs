// A node:test reporter that runs beside spec and keeps what the end of a run should say again: each failed
// test (file, name, the error as util.inspect prints it) and how long each file took. scripts/test.mjs
// prints both once every pass has ended: in a run of three passes the first pass's failures are far above
// the end of the output, where a CI log's tail no longer reaches, and the slowest files are where a run
// that grows too long has to be looked at first.
import { inspect } from 'node:util';

/** Enough of an error to say what failed and where; a stack's first lines name the assertion. */
const MAX_ERROR_LINES = 40;
/** A stack frame inside Node itself (the test runner, promises): noise beside the test's own frames. */
const NODE_FRAME =
  /^\s+at (?:.*\(node:.*\)|node:.*|new Promise \(<anonymous>\)|Array\.\w+ \(<anonymous>\))( \{)?$/;

export default async function* summaryReporter(source) {
  for await (const event of source) {
    const { name, file, nesting, details } = event.data ?? {};
    // A test file's own entry (its name is its path) completes with its process's time, startup included.
    // Said as it happens: the run is made to exit once its tests are done (--test-force-exit), so nothing
    // is left for after the loop.
    if (event.type === 'test:complete' && nesting === 0 && name === file && file !== undefined)
      yield `${JSON.stringify({ file, ms: Math.round(details?.duration_ms ?? 0) })}\n`;
    if (event.type !== 'test:fail') continue;
    const error = details?.error;
    // A suite fails because a test in it failed: that test has its own line already.
    if (error?.failureType === 'subtestsFailed') continue;
    // Errors thrown in a test file's process arrive wrapped (ERR_TEST_FAILURE); the cause is the test's.
    const thrown = error?.code === 'ERR_TEST_FAILURE' && error.cause !== undefined ? error.cause : error;
    const text = inspect(thrown, { depth: 4, breakLength: 120 })
      .split('\n')
      .filter((line) => !NODE_FRAME.test(line))
      .slice(0, MAX_ERROR_LINES);
    yield `${JSON.stringify({ failed: { file, name, error: text.join('\n') } })}\n`;
  }
}
