// What the CLI says about a request it asks for (`decision_reason` of `can_use_tool`), as the policy reads
// it. The CLI only ever makes a decision stricter: when it calls a write sensitive, no mode and no allow
// rule allows it. Wordings of Claude Code 2.1.328 for a Write or Edit (default permission mode):
//
//   `Claude requested permissions to edit <path> which is a sensitive file.`
//       .git/**, .mcp.json, .claude.json, .claude/** (but see below), .vscode/**, .idea/**, .husky/**,
//       .gitconfig, .gitmodules, .bashrc, .zshrc, .profile, .envrc, .npmrc, .ripgreprc, also from Bash
//       (`echo x > .git/config`, `sed -i … .git/config`, `cp a .git/hooks/x`, `tee .mcp.json`)
//   `Claude requested permissions to write to <path>, but you haven't granted it yet.`
//       .claude/settings.json, .claude/settings.local.json, .claude/commands|agents|skills/**
//   `Path is outside allowed working directories`                       a write outside the cwd
//   `<path> resolves through a symlink to <real>, which is outside the allowed working directories`
//   (none)                                                               an ordinary write in the cwd
//
// For Bash the CLI also says `This command requires approval`, `'eval' evaluates arguments as shell
// code`, `A nested command in this command can't be checked before it runs`; none of those is a verdict
// on a file. So: any wording that mentions a sensitive file is one; and for the file-writing tools, any
// wording that is not one of the two "outside" notes is taken as one too, so that a new wording in a
// later CLI fails safe (asks) instead of open.

/** The tools that write the file named by their input; `auto-edits` allows them inside the cwd. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

const SENSITIVE = /\bsensitive\b/iu;
const ORDINARY_WRITE_NOTES = [
  /^Path is outside allowed working directories\.?$/u,
  /resolves through a symlink to .*, which is outside the allowed working directories\.?$/su,
];

/** Does the CLI's reason for asking mark this request as touching a sensitive file? */
export function cliCallsSensitive(toolName: string, decisionReason: string | null | undefined): boolean {
  if (decisionReason === undefined || decisionReason === null || decisionReason.trim() === '') return false;
  if (SENSITIVE.test(decisionReason)) return true;
  return EDIT_TOOLS.has(toolName) && !ORDINARY_WRITE_NOTES.some((note) => note.test(decisionReason.trim()));
}
