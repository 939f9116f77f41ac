#!/usr/bin/env node
// The `warden` command: run an agent in the terminal, serve the API and web UI, answer the approvals
// waiting in it, print a login link, show the agents' processes, or start the offline demo.
// See docs/cli.md. Exit codes: 0 done, 1 failed, 2 usage error, 130 interrupted.
import type { Command } from './args/index.js';

async function main(argv: readonly string[]): Promise<number> {
  // Claude Code runs this on every hook event: it loads nothing else (not even the argument parser).
  if (argv[0] === 'hook' && argv[1] === 'run') {
    const { hookRun } = await import('./hook-run.js');
    return hookRun(argv.slice(2));
  }
  const { packageVersion } = await import('../server/version.js');
  const { parseCommand, USAGE, usageFor, UsageError } = await import('./args/index.js');
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`warden: ${error.message}\n\n${usageFor(error.command)}`);
    return 2;
  }
  try {
    switch (command.name) {
      case 'help':
        process.stdout.write(USAGE);
        return 0;
      case 'version':
        process.stdout.write(`${packageVersion()}\n`);
        return 0;
      case 'run': {
        const { runCommand } = await import('./run-command.js');
        return await runCommand(command);
      }
      case 'serve': {
        const { serveCommand } = await import('./serve-command.js');
        return await serveCommand(command);
      }
      case 'login': {
        const { loginCommand } = await import('./login-command.js');
        return loginCommand(command);
      }
      case 'inbox': {
        const { inboxCommand } = await import('./inbox-command.js');
        return await inboxCommand(command);
      }
      case 'hosts': {
        const { hostsCommand } = await import('./hosts-command.js');
        return await hostsCommand(command);
      }
      case 'status': {
        const { statusCommand } = await import('./status-command.js');
        return await statusCommand(command);
      }
      case 'agents': {
        const { agentsCommand } = await import('./agents-command.js');
        return await agentsCommand(command);
      }
      case 'demo': {
        const { demoCommand } = await import('./demo-command.js');
        return await demoCommand(command);
      }
      case 'token': {
        const { tokenCommand } = await import('./token-command.js');
        return await reportFailure(() => tokenCommand(command));
      }
      case 'hook': {
        const { hookCommand } = await import('./hook-command.js');
        return await reportFailure(() => hookCommand(command));
      }
      case 'audit': {
        const { auditCommand } = await import('./audit-command.js');
        return await reportFailure(() => auditCommand(command));
      }
      case 'policy': {
        const { policyCommand } = await import('./policy-command.js');
        return await reportFailure(() => policyCommand(command));
      }
    }
  } catch (error) {
    // A line that parsed but cannot run as given (a --cwd that is no directory, --host-name without a
    // store): said like a parse error, with the command's usage.
    if (error instanceof UsageError) {
      process.stderr.write(`warden: ${error.message}\n\n${usageFor(error.command ?? command.name)}`);
      return 2;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => exit(code),
  (error: unknown) => {
    process.stderr.write(
      `warden: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    exit(1);
  },
);

/** A failure that is not a usage error is said in one line (exit code 1), not as a stack. */
async function reportFailure(run: () => Promise<number>): Promise<number> {
  const { UsageError } = await import('./args/index.js');
  try {
    return await run();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    process.stderr.write(`warden: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/** Exits once stdout has flushed (a pipe is written asynchronously), whatever still holds the loop. */
function exit(code: number): void {
  process.stdout.write('', () => process.exit(code));
}
