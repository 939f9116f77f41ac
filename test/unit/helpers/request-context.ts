// A mock-model request context for scenario tests: a first main-agent request with nothing in it,
// changed by `overrides` (the routing facts a test is about).
import type { RequestContext } from '../../../src/testing/index.js';

export function ctx(overrides: Partial<RequestContext> = {}): RequestContext {
  return {
    n: 1,
    kind: 'main',
    rounds: 0,
    turnRounds: 0,
    turns: 1,
    step: 0,
    isTaskNotification: false,
    toolResults: [],
    lastUserText: '',
    firstUserText: '',
    turnText: '',
    systemText: '',
    toolNames: [],
    model: 'claude-mock',
    stream: true,
    body: {},
    headers: {},
    ...overrides,
  };
}
