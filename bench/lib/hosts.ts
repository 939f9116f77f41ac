// The two hosts under comparison behind one small interface. Both take the same `{prompt, options}`;
// the benchmarks use only options both understand, so any difference measured is the host's.
// Loaded lazily: the memory benchmark's child processes import exactly one of them. Warden is loaded as
// built (built-package.ts), as a client runs it.

import { pathToFileURL } from 'node:url';

import { BUILT_ENTRY, buildIsStale } from './built-package.js';

export const HOST_NAMES = ['warden', 'official'] as const;
export type HostName = (typeof HOST_NAMES)[number];

export const HOST_LABELS: Readonly<Record<HostName, string>> = {
  warden: 'Warden',
  official: 'official SDK',
};

/** What the benchmarks read from a message: the wire frame as the host yields it. */
export type BenchMessage = { readonly type: string } & Readonly<Record<string, unknown>>;

export interface HostQuery extends AsyncIterable<BenchMessage> {
  close(): void;
}

/** The permission callbacks the benchmarks use: allow, with the input unchanged. */
export type AllowAll = (
  toolName: string,
  input: Record<string, unknown>,
  context: { readonly agentID?: string | undefined },
) => Promise<{ behavior: 'allow'; updatedInput: Record<string, unknown> }>;

export interface BenchOptions {
  readonly pathToClaudeCodeExecutable: string;
  readonly env: Record<string, string>;
  readonly cwd?: string;
  readonly canUseTool?: AllowAll;
}

export type HostQueryFn = (args: {
  prompt: string | AsyncIterable<unknown>;
  options: BenchOptions;
}) => HostQuery;

export const allowAll: AllowAll = (_toolName, input) =>
  Promise.resolve({ behavior: 'allow', updatedInput: input });

export async function loadHost(name: HostName): Promise<HostQueryFn> {
  if (name === 'warden') {
    if (buildIsStale()) throw new Error(`${BUILT_ENTRY} is missing or older than src/: run npm run build`);
    const { query } = (await import(pathToFileURL(BUILT_ENTRY).href)) as typeof import('../../src/index.js');
    return ({ prompt, options }) =>
      query({
        prompt: prompt as Parameters<typeof query>[0]['prompt'],
        options: {
          ...options,
          // Warden reports leftovers it killed and similar events here; the official SDK has no
          // equivalent, and printing them would only add noise to the benchmark's output.
          onWarning: () => undefined,
        },
      });
  }
  const { query } = await import('@anthropic-ai/claude-agent-sdk');
  return ({ prompt, options }) => query({ prompt: prompt as Parameters<typeof query>[0]['prompt'], options });
}

export async function loadHosts(): Promise<Record<HostName, HostQueryFn>> {
  return { warden: await loadHost('warden'), official: await loadHost('official') };
}
