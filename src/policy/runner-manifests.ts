// A rule that allows a runner allows whatever its manifests say: `Bash(npm test)` runs the `test` script
// of package.json, `Bash(make:*)` the Makefile's recipes, `Bash(pytest:*)` conftest.py. A person writes
// the rule before the agent changes the code, so while a thread allows a runner, that runner's manifests
// are protected in that thread: a write to one asks, whatever the mode or the other allow rules say.
// (The other choice, letting the allow lapse once a manifest changed, would need a record of every
// manifest's content per thread; this one is decided from the request alone.)
//
// | Runner (the allowed program)                   | Its manifests (any folder of the project)               |
// |------------------------------------------------|---------------------------------------------------------|
// | npm, npx, yarn, pnpm, bun, node --run, corepack | package.json, .npmrc, .yarnrc, .yarnrc.yml, node_modules/.bin/**, .pnpmfile.cjs |
// | make, gmake                                    | Makefile, makefile, GNUmakefile, *.mk                    |
// | pytest, py.test, tox, nox, python, python3     | conftest.py, pytest.ini, pyproject.toml, tox.ini,       |
// |   (`python -m pytest` …)                       | setup.cfg, setup.py, noxfile.py, sitecustomize.py,      |
// |                                                | usercustomize.py, *.pth                                  |
// | cargo                                          | Cargo.toml, build.rs, .cargo/config, .cargo/config.toml |
// | go                                             | go.mod, go.work, *_test.go is code the tests run anyway |
// | gradle, gradlew, ./gradlew                     | build.gradle, build.gradle.kts, settings.gradle(.kts), gradle.properties, gradlew |
// | mvn, mvnw                                      | pom.xml, .mvn/**                                         |
// | just, rake, task                               | justfile, Justfile, .justfile, Rakefile, Taskfile.yml   |
// | jest, vitest, mocha, playwright, tsc, eslint   | their config files: jest.config.*, vitest.config.*, vite.config.*, .mocharc.*, playwright.config.*, tsconfig*.json, eslint.config.*, .eslintrc* |
//
// Go: only go.mod/go.work are listed; the tests themselves are code the runner runs by design.
import { basename } from 'node:path';

import type { CompiledRule } from './rules.js';

interface RunnerEntry {
  readonly programs: readonly string[];
  /** Globs on a path relative to the project, `*` within a segment; a pattern without `/` is a file name. */
  readonly manifests: readonly string[];
}

const NODE = ['package.json', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', 'node_modules/.bin/*'];
const PYTHON = [
  'conftest.py',
  'pytest.ini',
  'pyproject.toml',
  'tox.ini',
  'setup.cfg',
  'setup.py',
  'noxfile.py',
  'sitecustomize.py',
  'usercustomize.py',
  '*.pth',
];

const RUNNERS: readonly RunnerEntry[] = [
  { programs: ['npm', 'npx', 'yarn', 'pnpm', 'pnpx', 'bun', 'bunx', 'corepack', 'node'], manifests: NODE },
  { programs: ['make', 'gmake'], manifests: ['Makefile', 'makefile', 'GNUmakefile', '*.mk'] },
  { programs: ['pytest', 'py.test', 'tox', 'nox', 'python', 'python3'], manifests: PYTHON },
  { programs: ['cargo'], manifests: ['Cargo.toml', 'build.rs', '.cargo/config', '.cargo/config.toml'] },
  { programs: ['go'], manifests: ['go.mod', 'go.work'] },
  {
    programs: ['gradle', 'gradlew'],
    manifests: [
      'build.gradle',
      'build.gradle.kts',
      'settings.gradle',
      'settings.gradle.kts',
      'gradle.properties',
      'gradlew',
    ],
  },
  { programs: ['mvn', 'mvnw'], manifests: ['pom.xml', '.mvn/*'] },
  {
    programs: ['just', 'rake', 'task'],
    manifests: ['justfile', 'Justfile', '.justfile', 'Rakefile', 'Taskfile.yml', 'Taskfile.yaml'],
  },
  {
    programs: ['jest', 'vitest', 'mocha', 'playwright', 'tsc', 'eslint'],
    manifests: [
      'jest.config.*',
      'vitest.config.*',
      'vite.config.*',
      '.mocharc.*',
      'playwright.config.*',
      'tsconfig*.json',
      'eslint.config.*',
      '.eslintrc*',
    ],
  },
];

/** A manifest of an allowed runner that `path` is, with the rule that allows the runner. */
export interface RunnerManifest {
  readonly rule: string;
  readonly manifest: string;
}

/**
 * The runners the allow rules let run: a Bash rule whose pattern's program is one (`Bash(npm test)`,
 * `Bash(make:*)`, `Bash(npx jest:*)` counts npx and jest), or a rule covering every Bash command.
 */
export function allowedRunners(allow: readonly CompiledRule[]): ReadonlyMap<RunnerEntry, string> {
  // A compiled policy's rules do not change: worked out once per list.
  const known = runnersOf.get(allow);
  if (known !== undefined) return known;
  const found = new Map<RunnerEntry, string>();
  runnersOf.set(allow, found);
  for (const rule of allow) {
    if (!rule.tool.test('Bash')) continue;
    const words = rule.pattern === undefined ? undefined : programWords(rule.pattern);
    for (const entry of RUNNERS) {
      if (found.has(entry)) continue;
      if (words === undefined || words.some((word) => entry.programs.includes(word)))
        found.set(entry, rule.source);
    }
  }
  return found;
}

const runnersOf = new WeakMap<readonly CompiledRule[], Map<RunnerEntry, string>>();

/** The runner manifest `relative` (a path inside the project, `/`-separated) is, if any. */
export function runnerManifestFor(
  relative: string,
  runners: ReadonlyMap<RunnerEntry, string>,
): RunnerManifest | undefined {
  // Pure in both: worked out once per path for each set of runners (one per compiled policy).
  let known = manifestOf.get(runners);
  if (known === undefined) manifestOf.set(runners, (known = new Map<string, RunnerManifest | null>()));
  const hit = known.get(relative);
  if (hit !== undefined) return hit ?? undefined;
  const found = findManifest(relative, runners);
  if (known.size >= MANIFESTS_KEPT) known.clear();
  known.set(relative, found ?? null);
  return found;
}

const manifestOf = new WeakMap<ReadonlyMap<RunnerEntry, string>, Map<string, RunnerManifest | null>>();
const MANIFESTS_KEPT = 4096;

function findManifest(
  relative: string,
  runners: ReadonlyMap<RunnerEntry, string>,
): RunnerManifest | undefined {
  const segments = relative.split('/').filter((segment) => segment !== '' && segment !== '.');
  // A manifest's last segment must name the file: only the runners with such a manifest are looked at.
  const named = runnersNaming(segments.at(-1) ?? '');
  for (const [entry, rule] of runners) {
    if (!named.has(entry)) continue;
    for (const manifest of entry.manifests) {
      if (matchesManifest(segments, manifest)) return { rule, manifest };
    }
  }
  return undefined;
}

/**
 * The words of a rule's pattern that can name the program: the first, by its base name (`./gradlew`),
 * and the next ones while they are modules or runners launched by the first (`python -m pytest`,
 * `npx jest`). A `*` word could be any program: it names every runner.
 */
function programWords(pattern: string): string[] {
  const words = pattern.replace(/:\*$/, '').trim().split(/\s+/).slice(0, 4);
  if (words.some((word) => word.includes('*'))) return RUNNERS.flatMap((entry) => entry.programs);
  return words.filter((word) => !word.startsWith('-')).map((word) => basename(word));
}

/** A manifest pattern without `/` matches a file name in any folder; one with `/`, trailing segments. */
function matchesManifest(segments: readonly string[], manifest: string): boolean {
  const parts = manifest.split('/');
  if (segments.length < parts.length) return false;
  const tail = segments.slice(segments.length - parts.length);
  return parts.every((part, index) => PART_GLOBS.get(part)?.test(tail[index] ?? '') === true);
}

/** A manifest segment's matcher: case-insensitive, `*` within the segment. */
function manifestGlob(part: string): RegExp {
  const source = part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`^${source}$`, 'i');
}

/** Every segment glob of every manifest, with its matcher. */
const PART_GLOBS = new Map(
  RUNNERS.flatMap((entry) => entry.manifests.flatMap((manifest) => manifest.split('/'))).map((part) => [
    part,
    manifestGlob(part),
  ]),
);

/** Each runner's manifests' last segments: the names as they are, and the globs among them. */
const LAST_SEGMENTS = RUNNERS.map((entry) => {
  const last = entry.manifests.map((manifest) => manifest.split('/').at(-1) ?? '');
  return {
    entry,
    names: new Set(last.filter((part) => !part.includes('*')).map((part) => part.toLowerCase())),
    globs: last.filter((part) => part.includes('*')).map(manifestGlob),
  };
});

/** The runners one of whose manifests' last segment a file name matches. */
function runnersNaming(name: string): ReadonlySet<RunnerEntry> {
  const lower = name.toLowerCase();
  return new Set(
    LAST_SEGMENTS.filter(({ names, globs }) => names.has(lower) || globs.some((glob) => glob.test(name))).map(
      ({ entry }) => entry,
    ),
  );
}
