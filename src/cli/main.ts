#!/usr/bin/env node
// The `warden` command. The SDK and the testkit are here today; the supervisor, the server with its
// approval inbox and the demo come next, and this command will drive them.
const [command] = process.argv.slice(2);

const usage = `warden — a host for agent CLIs (Claude Code first)

Available now, as libraries:
  import { query } from 'warden'            drop-in query() for the Claude Code CLI
  import { startMockModel } from 'warden/testing'   run the real CLI offline in tests

Coming next:
  warden demo     an approval inbox in the browser, driven by a scripted model (no API key needed)
  warden run      run an agent in the terminal and answer its permission requests
  warden serve    the HTTP/WebSocket server and web UI

Try it: npm test   (unit, fault-injection and end-to-end tests against the real CLI, offline)
`;

if (command === undefined || command === 'demo' || command === 'help' || command === '--help') {
  process.stdout.write(usage);
} else {
  process.stderr.write(`warden: unknown command '${command}'\n\n${usage}`);
  process.exitCode = 2;
}
