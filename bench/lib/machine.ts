// Where and with what the benchmarks ran: the report is only meaningful next to these.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem } from 'node:os';

export interface MachineInfo {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly os: string;
  readonly node: string;
  /** 1-minute load average when the run started: the machine may be shared. */
  readonly loadAverageAtStart: number;
}

export interface Versions {
  readonly officialSdk: string;
  readonly claudeCli: string;
  /** The commit the working tree is based on (it may carry uncommitted changes). */
  readonly commit: string | undefined;
}

export function machineInfo(): MachineInfo {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${process.platform} ${release()}`,
    node: process.version,
    loadAverageAtStart: round2(loadavg()[0] ?? 0),
  };
}

export function loadAverageNow(): number {
  return round2(loadavg()[0] ?? 0);
}

export function versions(): Versions {
  return {
    officialSdk: packageVersion('@anthropic-ai/claude-agent-sdk'),
    claudeCli: bundledCliVersion(),
    commit: gitCommit(),
  };
}

function packageVersion(name: string): string {
  return versionIn(`../../node_modules/${name}/package.json`);
}

/** The official SDK's manifest names the CLI build its platform package carries. */
function bundledCliVersion(): string {
  return versionIn('../../node_modules/@anthropic-ai/claude-agent-sdk/manifest.json');
}

function versionIn(relativePath: string): string {
  try {
    const url = new URL(relativePath, import.meta.url);
    return (JSON.parse(readFileSync(url, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'not installed';
  }
}

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
