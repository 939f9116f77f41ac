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

/** Linux counts CPU time in /proc/stat in ticks of 1/USER_HZ s; 100 on every architecture Node runs on. */
const USER_HZ = 100;

/**
 * The CPU time every process of the machine has used since boot (µs; idle and I/O wait left out), from
 * /proc/stat; undefined where there is none. Read twice, it says how busy the machine was in between,
 * the load generators of a benchmark included.
 */
export function machineCpuUs(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1);
    const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
    const busy = [user, nice, system, irq, softirq, steal].reduce((sum, ticks) => sum! + (ticks ?? 0), 0)!;
    return Number.isFinite(busy) ? (busy * 1e6) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
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
