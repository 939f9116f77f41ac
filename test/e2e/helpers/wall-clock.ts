// Waiting for the wall clock, for what a real timer (a deadline, a route's step) waits for while no host
// runs: nothing else can tell the test that the time has passed.

/** Resolves once the wall clock has passed `at` (an ISO time). */
export async function clockPasses(at: string): Promise<void> {
  while (Date.now() <= Date.parse(at) + 50)
    await new Promise((resolve) => setTimeout(resolve, Math.max(20, Date.parse(at) + 60 - Date.now())));
}
