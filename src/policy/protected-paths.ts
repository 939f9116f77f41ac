// Paths an agent must never change without a person saying so: writing them makes a later process run
// code (often one nobody deliberately starts: `git status` reads `.git/config`, the CLI starts the MCP
// servers `.mcp.json` names), or changes the rules the agent itself runs under. A write to any of them is
// never allowed by a mode or an allow rule, full-access included; it becomes an approval (a deny rule
// still denies). This table is the one list: the policy matches it and the tests are generated from it.
//
// Matching (see `protectedEntryFor`):
// - an entry is one or more path segments; it matches where those segments appear in a row anywhere in
//   the path, at any depth (`sub/.git/hooks/x` and `/home/u/.bashrc` alike). `dir` entries also cover
//   everything below them; `file` entries match only as the last segments. A `*` in a segment matches
//   any characters within it (`*.code-workspace`);
// - always case-insensitively: the default filesystems of macOS and Windows are, and a false match only
//   costs a question;
// - segments are compared after Unicode NFC normalisation with ignorable code points removed (HFS+ drops
//   them: `.g\u200cit` is `.git`), an NTFS stream removed (`.git::$INDEX_ALLOCATION` is the directory
//   `.git`, `settings.json::$DATA` the file's content, `.bashrc:x` a stream of it) and trailing dots and
//   spaces removed (Windows drops them: `.git.`);
// - a Windows 8.3 short name (`GIT~1`, `CLAUDE~1.JSO`, `GITHOO~1`, or the hashed form `GI3F2A~1`) matches
//   every entry segment whose short name it may be: Windows makes it from the first characters of the
//   name (leading dots and inner dots dropped) and of its extension;
// - the policy checks the path as written (resolved against the cwd) and its real path (symlinks followed;
//   for a file that does not exist yet, the nearest existing parent's).
//
// Deliberately not in the table, each with its reason: UNPROTECTED below (the tests check each is still
// allowed where auto-edits allows edits). The list cannot be complete: a person who needs more adds deny
// rules, or runs `supervised`.

import { canStartWith, globTokens, type GlobTokens } from './glob-prefix.js';
import { rememberedBy } from './pure-memo.js';

export type ProtectedKind = 'dir' | 'file';
export type ProtectedGroup = 'vcs' | 'agent' | 'editor' | 'shell' | 'tooling' | 'login';

/** The groups of the table, as docs/policy.md titles them. */
export const PROTECTED_GROUPS: Readonly<Record<ProtectedGroup, string>> = {
  vcs: 'Version control internals and hooks',
  agent: "The agent's own configuration and MCP servers",
  editor: 'Editors and IDEs',
  shell: 'Shell startup files',
  tooling: 'Tools that run code from their configuration when invoked for something else',
  login: 'Credentials and login-time programs (when the cwd is, or contains, a home directory)',
};

export interface ProtectedEntry {
  /** Path segments, `/`-separated, lower case: `.git`, `.config/fish`; `*` matches within a segment. */
  readonly path: string;
  readonly kind: ProtectedKind;
  readonly group: ProtectedGroup;
  /** Why a write here is dangerous: shown in the approval's reason. */
  readonly reason: string;
}

export const PROTECTED_PATHS: readonly ProtectedEntry[] = [
  // Version control internals and hooks.
  {
    path: '.git',
    kind: 'dir',
    group: 'vcs',
    reason:
      'git internals: config (core.fsmonitor, core.pager, aliases, filters) and hooks run commands at the next git call, including the `git status` the CLI runs unasked; a `.git` file redirects git to another directory',
  },
  {
    path: '.gitmodules',
    kind: 'file',
    group: 'vcs',
    reason: 'points submodule fetches at other repositories',
  },
  {
    path: '.gitconfig',
    kind: 'file',
    group: 'vcs',
    reason: 'git configuration: runs commands like .git/config',
  },
  {
    path: '.config/git',
    kind: 'dir',
    group: 'vcs',
    reason: 'git configuration: runs commands like .git/config',
  },
  { path: '.husky', kind: 'dir', group: 'vcs', reason: 'git hooks managed by husky run at the next commit' },
  {
    path: '.githooks',
    kind: 'dir',
    group: 'vcs',
    reason: 'the hooks directory repositories point core.hooksPath at: its hooks run at the next commit',
  },
  {
    path: '.git-hooks',
    kind: 'dir',
    group: 'vcs',
    reason: 'the hooks directory repositories point core.hooksPath at (and overcommit loads hooks from)',
  },
  {
    path: '.pre-commit-config.yaml',
    kind: 'file',
    group: 'vcs',
    reason: 'the pre-commit framework runs the commands listed here at the next commit',
  },
  ...['lefthook.*', '.lefthook.*', 'lefthook-local.*', '.lefthook-local.*'].map((path): ProtectedEntry => ({
    path,
    kind: 'file',
    group: 'vcs',
    reason: 'lefthook configuration (.yml, .yaml, .toml, .json): the commands it lists run at git hooks',
  })),
  ...['.lefthook', '.lefthook-local'].map((path): ProtectedEntry => ({
    path,
    kind: 'dir',
    group: 'vcs',
    reason: 'lefthook runs the scripts in it at git hooks',
  })),
  {
    path: '.overcommit.yml',
    kind: 'file',
    group: 'vcs',
    reason: 'overcommit configuration: the hooks and commands it runs at git hooks',
  },
  { path: '.hg', kind: 'dir', group: 'vcs', reason: 'Mercurial internals: hgrc [hooks] run commands' },
  {
    path: '.svn',
    kind: 'dir',
    group: 'vcs',
    reason: 'Subversion working-copy database: changes what is committed',
  },
  {
    path: '.hgrc',
    kind: 'file',
    group: 'vcs',
    reason: 'Mercurial configuration: [hooks] run commands at hg calls',
  },
  {
    path: '.sl',
    kind: 'dir',
    group: 'vcs',
    reason: 'Sapling internals: its config runs hooks and names programs',
  },
  { path: '.jj', kind: 'dir', group: 'vcs', reason: 'Jujutsu repository config can name programs it runs' },
  // The agent's own configuration and MCP servers.
  {
    path: '.claude',
    kind: 'dir',
    group: 'agent',
    reason:
      'Claude Code configuration: settings grant permissions and define hooks, commands, agents and skills the CLI runs',
  },
  {
    path: '.claude.json',
    kind: 'file',
    group: 'agent',
    reason: 'Claude Code state, including MCP servers it starts',
  },
  {
    path: '.mcp.json',
    kind: 'file',
    group: 'agent',
    reason: 'MCP servers: the CLI starts each as a process',
  },
  {
    path: '.cursor',
    kind: 'dir',
    group: 'agent',
    reason: 'Cursor configuration, including MCP servers it starts',
  },
  {
    path: '.gemini',
    kind: 'dir',
    group: 'agent',
    reason: 'Gemini CLI settings: MCP servers and hooks it runs',
  },
  {
    path: '.codex',
    kind: 'dir',
    group: 'agent',
    reason: 'Codex configuration: MCP servers and commands it runs',
  },
  // Editors and IDEs.
  {
    path: '.vscode',
    kind: 'dir',
    group: 'editor',
    reason: 'VS Code tasks run on folder open; settings name executables and MCP servers',
  },
  { path: '.idea', kind: 'dir', group: 'editor', reason: 'JetBrains run configurations and startup tasks' },
  {
    path: '.devcontainer',
    kind: 'dir',
    group: 'editor',
    reason: 'dev container lifecycle commands run when the folder is opened in a container',
  },
  {
    path: '.devcontainer.json',
    kind: 'file',
    group: 'editor',
    reason: 'dev container lifecycle commands run when the folder is opened in a container',
  },
  {
    path: '*.code-workspace',
    kind: 'file',
    group: 'editor',
    reason: 'a VS Code workspace: its settings, tasks and launch configurations apply when it is opened',
  },
  {
    path: '.zed',
    kind: 'dir',
    group: 'editor',
    reason: 'Zed project settings name language servers and tasks it runs',
  },
  {
    path: '.vimrc',
    kind: 'file',
    group: 'editor',
    reason: 'Vim runs it at start (in this directory with exrc)',
  },
  { path: '.exrc', kind: 'file', group: 'editor', reason: 'vi/Vim run it at start in this directory (exrc)' },
  {
    path: '.nvimrc',
    kind: 'file',
    group: 'editor',
    reason: 'Neovim runs it at start in this directory (exrc)',
  },
  {
    path: '.nvim.lua',
    kind: 'file',
    group: 'editor',
    reason: 'Neovim runs it at start in this directory (exrc)',
  },
  // Shell startup files.
  {
    path: '.bashrc',
    kind: 'file',
    group: 'shell',
    reason: 'bash runs it at the start of every interactive shell',
  },
  { path: '.bash_profile', kind: 'file', group: 'shell', reason: 'bash runs it at login' },
  { path: '.bash_login', kind: 'file', group: 'shell', reason: 'bash runs it at login' },
  { path: '.bash_logout', kind: 'file', group: 'shell', reason: 'bash runs it at logout' },
  {
    path: '.bash_aliases',
    kind: 'file',
    group: 'shell',
    reason: 'the usual .bashrc runs it at the start of every interactive shell',
  },
  { path: '.profile', kind: 'file', group: 'shell', reason: 'sh-compatible shells run it at login' },
  { path: '.zshenv', kind: 'file', group: 'shell', reason: 'zsh runs it at the start of every shell' },
  {
    path: '.zshrc',
    kind: 'file',
    group: 'shell',
    reason: 'zsh runs it at the start of every interactive shell',
  },
  { path: '.zprofile', kind: 'file', group: 'shell', reason: 'zsh runs it at login' },
  { path: '.zlogin', kind: 'file', group: 'shell', reason: 'zsh runs it at login' },
  { path: '.zlogout', kind: 'file', group: 'shell', reason: 'zsh runs it at logout' },
  { path: '.config/fish', kind: 'dir', group: 'shell', reason: 'fish runs config.fish and conf.d at start' },
  {
    path: '.envrc',
    kind: 'file',
    group: 'shell',
    reason: 'direnv runs it when a shell enters the directory',
  },
  // Tools that run code from their configuration when invoked for something else.
  {
    path: '.npmrc',
    kind: 'file',
    group: 'tooling',
    reason: 'npm config: script-shell, node-options and git name programs npm runs at its next call',
  },
  {
    path: '.yarnrc',
    kind: 'file',
    group: 'tooling',
    reason: 'yarn config: yarn-path runs another program as yarn',
  },
  {
    path: '.yarnrc.yml',
    kind: 'file',
    group: 'tooling',
    reason: 'yarn config: yarnPath runs a script as yarn',
  },
  { path: '.pnpmfile.cjs', kind: 'file', group: 'tooling', reason: 'pnpm runs it at every install' },
  {
    path: 'bunfig.toml',
    kind: 'file',
    group: 'tooling',
    reason: 'bun config: preload scripts run at every bun run',
  },
  ...['.cargo/config.toml', '.cargo/config'].map((path): ProtectedEntry => ({
    path,
    kind: 'file',
    group: 'tooling',
    reason: 'cargo config: runners, rustc wrappers and aliases run programs at every cargo build or test',
  })),
  ...['rust-toolchain.toml', 'rust-toolchain'].map((path): ProtectedEntry => ({
    path,
    kind: 'file',
    group: 'tooling',
    reason: 'rustup runs the toolchain it names, which may be a directory of any programs',
  })),
  ...['mise.toml', '.mise.toml', 'mise.*.toml', '.mise.*.toml'].map((path): ProtectedEntry => ({
    path,
    kind: 'file',
    group: 'tooling',
    reason: 'mise config: tasks, hooks and env directives run commands when a shell enters the directory',
  })),
  {
    path: '.config/mise',
    kind: 'dir',
    group: 'tooling',
    reason: 'mise config: tasks, hooks and env directives run commands when a shell enters the directory',
  },
  // Credentials and login-time programs (when the cwd is, or contains, a home directory).
  {
    path: '.ssh',
    kind: 'dir',
    group: 'login',
    reason: 'ssh config runs ProxyCommand/LocalCommand; authorized_keys grants logins',
  },
  { path: '.aws', kind: 'dir', group: 'login', reason: 'AWS config: credential_process runs a program' },
  { path: '.kube', kind: 'dir', group: 'login', reason: 'kubeconfig: exec credential plugins run programs' },
  {
    path: '.config/autostart',
    kind: 'dir',
    group: 'login',
    reason: 'desktop sessions start these programs at login',
  },
  { path: '.config/systemd', kind: 'dir', group: 'login', reason: 'systemd user units run programs' },
];

/** Files one might expect in the table, and why they are not: a write there is an ordinary edit. */
export interface UnprotectedEntry {
  /** What is left out, as docs/policy.md names it. */
  readonly what: string;
  /** A path it covers, relative to the cwd, for the tests. */
  readonly sample: string;
  readonly reason: string;
}

// Most of them only run when someone runs the project, and approving `npm test` or `make` is approving the
// project's code, which every edit in `auto-edits` changes anyway.
export const UNPROTECTED: readonly UnprotectedEntry[] = [
  {
    what: '`package.json`',
    sample: 'package.json',
    reason: 'its scripts run when someone runs the project, like the source files',
  },
  { what: '`Makefile`', sample: 'Makefile', reason: 'runs when someone runs `make`, like the source files' },
  {
    what: '`node_modules/`',
    sample: 'node_modules/x/index.js',
    reason: "the project's dependencies: code that runs with the project",
  },
  {
    what: 'virtualenvs',
    sample: '.venv/bin/activate',
    reason: "the project's environment: code that runs with it",
  },
  { what: 'source files', sample: 'src/a.ts', reason: 'what the agent is there to edit' },
  {
    what: 'CI workflows',
    sample: '.github/workflows/ci.yml',
    reason: 'they run after a push, which is itself a decision',
  },
  {
    what: '`.gitattributes`',
    sample: '.gitattributes',
    reason: 'it only picks filters and diff drivers that git config defines (and `.git/` is protected)',
  },
  {
    what: '`CLAUDE.md`',
    sample: 'CLAUDE.md',
    reason:
      'instructions, not code: the CLI lets its own edit mode write it, and what a later session does with it still goes through this policy',
  },
  { what: '`.env`', sample: '.env', reason: 'values the project reads, not commands' },
];

/** Ignorable code points that HFS+ and some tools drop from names: zero-width, joiners, bidi marks, BOM. */
const IGNORABLE: readonly (readonly [number, number])[] = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
];

const ASCII = /^[ -~]*$/u;

function ignorable(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return IGNORABLE.some(([from, to]) => code >= from && code <= to);
}

/** One path segment as a case-insensitive filesystem may see it, an NTFS stream (`x::$DATA`) dropped. */
export function normalizeSegment(segment: string): string {
  // Plain ASCII (nearly every path) has nothing to compose and nothing ignorable in it.
  const visible = ASCII.test(segment)
    ? segment
    : [...segment.normalize('NFC')].filter((char) => !ignorable(char)).join('');
  const colon = visible.indexOf(':');
  const named = colon > 0 ? visible.slice(0, colon) : visible;
  return named.replace(/[. ]+$/u, '').toLowerCase();
}

/** An entry segment: its glob, and the globs of what its 8.3 short name starts with. */
interface CompiledSegment {
  readonly glob: RegExp;
  readonly shortBase: GlobTokens;
  readonly shortExtension: GlobTokens | undefined;
}

function compileSegment(raw: string): CompiledSegment {
  const segment = normalizeSegment(raw);
  const glob = new RegExp(`^${segment.split('*').map(escapeRegExp).join('.*')}$`, 'su');
  // Windows makes a short name from the name without its leading dots, the extension after the last dot.
  const name = segment.replace(/^\.+/u, '');
  const dot = name.lastIndexOf('.');
  const base = (dot === -1 ? name : name.slice(0, dot)).replace(/[. ]/gu, '');
  return {
    glob,
    shortBase: globTokens(base),
    shortExtension: dot === -1 ? undefined : globTokens(name.slice(dot + 1)),
  };
}

/** `~1`-style short names: up to 6 characters, `~`, a number, and up to 3 of the extension. */
const SHORT_NAME = /^([^~]{1,6})~\d{1,6}(?:\.([^.]{0,3}))?$/u;
/** Past four names of one prefix, Windows hashes: 2 characters of the name, 4 hex digits. */
const HASHED_STEM = /^([^~]{1,2})[0-9a-f]{4}$/u;

/** A (normalised) path segment, with what it says as a short name worked out once for every entry. */
interface PathSegment {
  readonly name: string;
  /** The stem (and its hashed prefix) and the extension of `name` as an 8.3 short name; null: not one. */
  readonly short: {
    readonly stem: string;
    readonly hashed: string | undefined;
    readonly extension: string;
  } | null;
}

function pathSegment(name: string): PathSegment {
  const short = SHORT_NAME.exec(name);
  if (short === null) return { name, short: null };
  const [, stem = '', extension = ''] = short;
  return { name, short: { stem, hashed: HASHED_STEM.exec(stem)?.[1], extension } };
}

/** Does the path segment name what the entry segment does, in full or by short name? */
function segmentMatches(segment: PathSegment, wanted: CompiledSegment): boolean {
  if (wanted.glob.test(segment.name)) return true;
  const { short } = segment;
  if (short === null) return false;
  if (short.extension !== '') {
    if (wanted.shortExtension === undefined || !canStartWith(wanted.shortExtension, short.extension))
      return false;
  }
  return (
    canStartWith(wanted.shortBase, short.stem) ||
    (short.hashed !== undefined && canStartWith(wanted.shortBase, short.hashed))
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.|?+()[\]{}]/gu, '\\$&');
}

const COMPILED = PROTECTED_PATHS.map((entry) => ({
  entry,
  segments: entry.path.split('/').map(compileSegment),
}));
const ENTRY_SEGMENTS = COMPILED.flatMap(({ segments }) => segments);

/**
 * The entry segments a path segment (as written) names: worked out once per distinct segment, so that a
 * path costs one pass over the table for each segment not seen before (`src`, the cwd's folders and the
 * like are seen in nearly every path), not one per entry and position.
 */
const namedBy = rememberedBy((raw: string): ReadonlySet<CompiledSegment> => {
  const segment = pathSegment(normalizeSegment(raw));
  return new Set(ENTRY_SEGMENTS.filter((wanted) => segmentMatches(segment, wanted)));
});

/** Answers already worked out, by path (the function is pure); dropped whole when full. */
const entryOf = new Map<string, ProtectedEntry | null>();
const ENTRIES_KEPT = 4096;

/** The first table entry `path` falls under, or undefined. `path` may be absolute or relative. */
export function protectedEntryFor(path: string): ProtectedEntry | undefined {
  const known = entryOf.get(path);
  if (known !== undefined) return known ?? undefined;
  const found = findEntry(path);
  if (entryOf.size >= ENTRIES_KEPT) entryOf.clear();
  entryOf.set(path, found ?? null);
  return found;
}

/** Each entry by its first segment, with its place in the table (the first entry that matches wins). */
const STARTING_WITH = new Map(
  COMPILED.map((compiled, index) => [compiled.segments[0], { ...compiled, index }]),
);

function findEntry(path: string): ProtectedEntry | undefined {
  const segments = path
    .split(/[/\\]+/u)
    .filter((s) => s !== '')
    .map(namedBy);
  // Only where a segment names an entry's first segment (rare: most segments name none) is the rest of
  // that entry compared.
  let found: { entry: ProtectedEntry; index: number } | undefined;
  segments.forEach((named, start) => {
    for (const first of named) {
      const candidate = STARTING_WITH.get(first);
      if (candidate === undefined || (found !== undefined && found.index < candidate.index)) continue;
      const { entry, segments: wanted } = candidate;
      if (start + wanted.length > segments.length) continue;
      if (!wanted.every((segment, i) => segments[start + i]?.has(segment) === true)) continue;
      if (entry.kind === 'dir' || start + wanted.length === segments.length) found = candidate;
    }
  });
  return found?.entry;
}

/**
 * The table as paths under one root (the cwd, the home) for the operating system to keep unwritable: the
 * sandbox of the CLI's Bash commands (`sandbox.filesystem.denyWrite`). Relative, `/`-separated, in table
 * order. A `.git` directory stays writable for commits: only what in it runs code is listed (config,
 * hooks, the attributes that pick filters, submodules' own git directories). Windows' short name is
 * left out: there is no such sandbox on Windows. A `.git` that is a file (a worktree, a submodule) is the
 * caller's to protect as a whole.
 */
export function osProtectedPaths(): readonly string[] {
  const gitRunsCode = ['config', 'config.worktree', 'hooks', 'info/attributes', 'modules'];
  const paths: string[] = [];
  for (const entry of PROTECTED_PATHS) {
    if (entry.path === 'git~1') continue;
    if (entry.path === '.git') paths.push(...gitRunsCode.map((inside) => `.git/${inside}`));
    else paths.push(entry.path);
  }
  return paths;
}
