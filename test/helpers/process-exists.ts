// Whether a process id is still taken, by signal 0: a test that expects a process gone asserts the
// error is ESRCH (an EPERM would mean it exists but is not ours).
import assert from 'node:assert/strict';

export function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ESRCH');
    return false;
  }
}
