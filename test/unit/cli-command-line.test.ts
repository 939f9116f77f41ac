// The `warden` command line: one parser for every command, so a flag no command has, a missing value, a
// flag of another command, an extra argument and a bad value are each said the same way everywhere; the
// usage text lists every flag each command declares.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { parseCommand, USAGE, usageFor, UsageError } from '../../src/cli/args/index.js';

function usageError(argv: string[]): UsageError {
  try {
    parseCommand(argv);
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return error;
  }
  assert.fail(`${argv.join(' ')} parsed`);
}

describe('warden command line', () => {
  it('says the same for an unknown flag, a missing value and a flag of another command, in any command', () => {
    for (const command of ['serve', 'inbox', 'status', 'login', 'token', 'audit', 'hosts', 'demo']) {
      assert.equal(usageError([command, '--bogus']).message, "Unknown option '--bogus'", command);
      assert.equal(usageError([command, '--bogus']).command, command, 'its usage follows the error');
      assert.equal(usageError([command, '-z']).message, "Unknown option '-z'", command);
    }
    // A prompt may start with a dash: run says how to pass one.
    assert.equal(
      usageError(['run', 'fix', '-x']).message,
      `Unknown option '-x' (a prompt that starts with '-' goes after --: warden run -- "-x …")`,
    );
    assert.equal(usageError(['run', '-yz', 'hi']).message.split(' (')[0], "Unknown option '-z'");
    assert.equal(usageError(['--bogus']).message, "Unknown option '--bogus'");
    assert.equal(usageError(['--bogus']).command, undefined, 'no command: the whole usage follows');
    for (const command of ['serve', 'inbox', 'status', 'login', 'token', 'audit', 'demo']) {
      assert.equal(usageError([command, '--port']).message, '--port needs a value: --port N', command);
      // The next flag is no value; a value that starts with a dash is written with `=`.
      assert.equal(usageError([command, '--port', '--host', 'h']).message, '--port needs a value: --port N');
      assert.equal(
        usageError([command, '--port', '-1']).message,
        "--port needs a value: --port N (a value that starts with '-' is written --port=-1)",
      );
      assert.equal(usageError([command, '--port=-1']).message, "--port must be 0-65535, got '-1'");
    }
    assert.equal(usageError(['run', 'x', '--cwd']).message, '--cwd needs a value: --cwd DIR');
    assert.equal(
      usageError(['run', 'x', '--data-dir', '-y']).message,
      '--data-dir needs a value: --data-dir DIR',
    );
    assert.equal(usageError(['serve', '--webhook']).message, '--webhook needs a value: --webhook URL');
    assert.equal(usageError(['hosts', '--store']).message, '--store needs a value: --store URL');
    assert.equal(usageError(['run', '--demo=yes']).message, "--demo takes no value (got '--demo=yes')");
    assert.equal(usageError(['inbox', '--json=1']).message, "--json takes no value (got '--json=1')");
    // None of node:util's own wording (several lines, advice about `--`) reaches the person.
    for (const argv of [
      ['run', '--bogus'],
      ['serve', '--port'],
      ['serve', '--port', '-1'],
      ['demo', '--x=1'],
    ])
      assert.doesNotMatch(
        usageError(argv).message,
        /\n|To specify|argument missing|ambiguous/,
        argv.join(' '),
      );
    assert.equal(usageError(['run', 'x', '--port', '1']).message, "--port does not apply to 'warden run'");
    assert.equal(usageError(['token', 'list', '--yes']).message, "--yes does not apply to 'warden token'");
    assert.equal(usageError(['demo', '--claude', 'x']).message, "--claude does not apply to 'warden demo'");
    assert.equal(usageError(['fly']).message, "Unknown command 'fly'");
    assert.equal(usageError([]).message, 'No command given');
    for (const command of ['serve', 'status', 'login', 'hosts', 'demo'])
      assert.equal(usageError([command, 'extra']).message, "Unexpected argument 'extra'");
    assert.equal(usageError(['token', 'create', 'ann', 'bob']).message, "Unexpected argument 'bob'");
    assert.equal(usageError(['audit', 'verify', 'x']).message, "Unexpected argument 'x'");
  });

  it('checks a port the same way in every command that takes one', () => {
    for (const command of ['serve', 'inbox', 'status', 'login', 'token', 'audit', 'demo']) {
      assert.equal(usageError([command, '--port', 'abc']).message, "--port must be 0-65535, got 'abc'");
      assert.equal(usageError([command, '--port', '65536']).message, "--port must be 0-65535, got '65536'");
    }
    assert.deepEqual(parseCommand(['token', 'list', '--port', '4391']), {
      name: 'token',
      action: 'list',
      port: 4391,
    });
  });

  it('reads run with its defaults, and refuses what cannot run', () => {
    assert.deepEqual(parseCommand(['run', 'make', 'a', 'file', '-y', '--model', 'm']), {
      name: 'run',
      prompt: 'make a file',
      cwd: process.cwd(),
      mode: 'supervised',
      model: 'm',
      policy: 'yes',
    });
    assert.equal(usageError(['run']).message, 'warden run needs a prompt: warden run "what to do"');
    assert.equal(usageError(['run', 'x', '--yes', '--deny']).message, 'Pass --yes or --deny, not both');
    assert.equal(
      usageError(['run', 'x', '--mode', 'yolo']).message,
      '--mode must be one of supervised, auto-edits, full-access',
    );
    assert.match(
      usageError(['run', '--demo', '--cwd', '.']).message,
      /--cwd does not apply to warden run --demo/,
    );
    assert.equal(
      usageError(['run', 'x', '--agent', 'gemini']).message,
      '--agent must be one of claude, codex',
    );
    assert.match(usageError(['run', '--demo', '--agent', 'codex']).message, /--agent codex does not apply/);
    assert.equal((parseCommand(['run', 'x', '--agent', 'codex']) as { agent?: string }).agent, 'codex');
    assert.equal('agent' in parseCommand(['run', 'x']), false, 'Claude Code unless codex is named');
    assert.deepEqual(parseCommand(['run', '--demo']), {
      name: 'run',
      prompt: '',
      cwd: process.cwd(),
      mode: 'supervised',
      policy: 'auto',
      demo: true,
    });
  });

  it('reads inbox, token and audit with their positionals', () => {
    assert.deepEqual(parseCommand(['inbox', 'deny', 'a1', 'not', 'now']), {
      name: 'inbox',
      answer: { approvalId: 'a1', behavior: 'deny', message: 'not now' },
    });
    assert.deepEqual(parseCommand(['inbox', '--json', '--host', 'h']), {
      name: 'inbox',
      host: 'h',
      json: true,
    });
    assert.match(
      usageError(['inbox', 'maybe', 'a1']).message,
      /answers with allow, always or deny, not 'maybe'/,
    );
    assert.equal(usageError(['inbox', 'allow', 'a1', 'why']).message, 'Only a deny takes a reason');
    assert.equal(
      usageError(['inbox', 'allow', 'a1', '--json']).message,
      '--json and --ask do not apply to warden inbox allow',
    );

    assert.deepEqual(parseCommand(['token', 'create', 'ann', '--data-dir', '/d']), {
      name: 'token',
      action: 'create',
      decider: 'ann',
      dataDir: '/d',
    });
    assert.equal(usageError(['token']).message, 'warden token needs an action');
    assert.equal(usageError(['token', 'frob']).message, "Unknown action 'frob'");
    assert.equal(usageError(['token', 'revoke']).message, 'warden token revoke needs a name');
    assert.match(usageError(['token', 'create', 'Not Valid']).message, /a decider name is/);
    assert.match(usageError(['token', 'create', 'owner']).message, /server token's holder/);

    assert.deepEqual(parseCommand(['audit']), { name: 'audit', format: 'jsonl' });
    assert.deepEqual(parseCommand(['audit', '--format', 'csv', '--since', '2026-01-31T00:00Z']), {
      name: 'audit',
      format: 'csv',
      since: '2026-01-31T00:00:00.000Z',
    });
    assert.deepEqual(parseCommand(['audit', 'verify']), { name: 'audit', format: 'jsonl', verify: true });
    assert.equal(usageError(['audit', '--format', 'xml']).message, '--format must be jsonl or csv');
    assert.match(usageError(['audit', '--since', 'soon']).message, /--since must be an ISO 8601 date/);
    assert.match(usageError(['audit', 'verify', '--format', 'csv']).message, /checks the whole chain/);
    assert.match(
      usageError(['audit', '--store', 'mysql://x']).message,
      /must be a postgres:\/\/ or postgresql:\/\/ URL/,
    );
  });

  it('reads agents: the list, stop THREAD and stop --all, and refuses the rest', () => {
    assert.deepEqual(parseCommand(['agents', '--data-dir', '/d']), { name: 'agents', dataDir: '/d' });
    assert.deepEqual(parseCommand(['agents', '--json']), { name: 'agents', json: true });
    assert.deepEqual(parseCommand(['agents', 'stop', '3f1c']), {
      name: 'agents',
      stop: { threadId: '3f1c' },
    });
    assert.deepEqual(parseCommand(['agents', 'stop', '--all', '--port', '4391']), {
      name: 'agents',
      port: 4391,
      stop: { all: true },
    });
    assert.match(usageError(['agents', 'stop']).message, /needs a thread id .*or --all/);
    assert.equal(usageError(['agents', 'stop', 'a', '--all']).message, 'give a thread or --all, not both');
    assert.equal(usageError(['agents', '--all']).message, '--all goes with warden agents stop');
    assert.equal(usageError(['agents', 'kill', 'a']).message, "Unknown action 'kill'");
    assert.equal(
      usageError(['agents', 'stop', '--all', '--json']).message,
      '--json goes with the list, not with stop',
    );
    assert.equal(usageError(['agents', 'stop', 'a', 'b']).message, "Unexpected argument 'b'");
  });

  it('reads serve --detached-idle as a duration, 0 or never for never', () => {
    const serve = parseCommand(['serve', '--detached-idle', '2h']);
    assert.equal(serve.name === 'serve' && serve.detachedIdleMs, 7_200_000);
    const never = parseCommand(['serve', '--detached-idle', 'never']);
    assert.equal(never.name === 'serve' && never.detachedIdleMs, 0);
    assert.match(
      usageError(['serve', '--detached-idle', 'soon']).message,
      /--detached-idle must be a duration/,
    );
  });

  it("takes a decider's role and scope, a route, and a webhook's decider", () => {
    assert.deepEqual(
      parseCommand([
        'token',
        'create',
        'alice',
        '--project',
        '/srv/app',
        '--risk',
        'network',
        '--risk',
        'bash',
      ]),
      {
        name: 'token',
        action: 'create',
        decider: 'alice',
        scope: { projects: ['/srv/app'], risks: ['network', 'bash'] },
      },
    );
    assert.deepEqual(parseCommand(['token', 'create', 'ops', '--escalation-only', '--role', 'operator']), {
      name: 'token',
      action: 'create',
      decider: 'ops',
      role: 'operator',
      scope: { escalationOnly: true },
    });
    assert.match(usageError(['token', 'list', '--tool', 'Bash']).message, /scope flags go with create/);
    assert.match(usageError(['token', 'create', 'x', '--project', 'rel']).message, /absolute paths/);
    assert.match(usageError(['token', 'create', 'x', '--risk', 'fire']).message, /--risk must be one of/);
    const serve = parseCommand([
      'serve',
      '--webhook',
      'https://a.example/',
      '--webhook-decider',
      'alice',
      '--webhook',
      'https://b.example/',
      '--route',
      'name=ops;escalate=10m;to=bob',
    ]);
    assert.ok(serve.name === 'serve');
    assert.deepEqual(serve.webhooks, [
      { url: 'https://a.example/', format: 'json', decider: 'alice' },
      { url: 'https://b.example/', format: 'json' },
    ]);
    assert.deepEqual(serve.routes, [{ name: 'ops', escalateAfterMs: 600_000, to: ['bob'] }]);
    assert.match(
      usageError(['serve', '--webhook-decider', 'alice']).message,
      /--webhook-decider goes after the --webhook/,
    );
  });

  it('reads serve --require-two as a list of kinds and rules, refusing what is neither', () => {
    const serve = parseCommand([
      'serve',
      '--require-two',
      'protected-writes',
      '--require-two',
      'Bash(git push:*)',
    ]);
    assert.deepEqual(serve.name === 'serve' && serve.requireTwo, ['protected-writes', 'Bash(git push:*)']);
    assert.equal(parseCommand(['serve']).name === 'serve' && 'requireTwo' in parseCommand(['serve']), false);
    assert.match(
      usageError(['serve', '--require-two', 'Bash()']).message,
      /--require-two\[0\] .* has an empty pattern/,
    );
  });

  it('asks for help and the version before anything else', () => {
    assert.deepEqual(parseCommand(['--help']), { name: 'help' });
    assert.deepEqual(parseCommand(['help']), { name: 'help' });
    assert.deepEqual(parseCommand(['run', '-h']), { name: 'help' });
    assert.deepEqual(parseCommand(['token', '--help']), { name: 'help' });
    assert.deepEqual(parseCommand(['--version']), { name: 'version' });
  });

  it('renders the usage text from the declarations: every command and every flag it takes', () => {
    const flags: Record<string, string[]> = {
      run: ['--cwd DIR', '--mode MODE', '--model NAME', '--yes, -y', '--deny', '--ask', '--demo'],
      serve: [
        '--port N',
        '--host HOST',
        '--stop-agents',
        '--webhook URL',
        '--webhook-format F',
        '--route SPEC',
        '--web-push',
        '--push-contact URL',
        '--park-after D',
        '--detached-idle D',
        '--require-two R',
        '--store URL',
        '--host-name NAME',
      ],
      inbox: ['--json', '--ask', '--port N', '--host HOST'],
      status: ['--port N', '--host HOST', '--store URL', '--host-name NAME'],
      login: ['--port N', '--host HOST'],
      token: [
        '--port N',
        '--host HOST',
        '--json',
        '--project DIR',
        '--tool TOOL',
        '--rule RULE',
        '--risk RISK',
      ],
      hosts: ['--store URL', '--json'],
      agents: ['--port N', '--host HOST', '--all', '--json'],
      audit: ['--format F', '--since TIME', '--store URL', '--port N', '--host HOST'],
      demo: ['--port N', '--host HOST'],
    };
    assert.match(USAGE, /^Usage: warden <command> \[options\]\n\nCommands:\n/);
    for (const [command, labels] of Object.entries(flags)) {
      const part = usageFor(command);
      assert.match(part, new RegExp(`^Usage: warden ${command}`));
      for (const label of labels) {
        assert.ok(part.includes(`      ${label} `), `${command}: ${label}\n${part}`);
        assert.ok(USAGE.includes(`      ${label} `), `${command}: ${label} in --help`);
      }
    }
    for (const common of ['--data-dir DIR', '--claude PATH', '--help, -h', '--version'])
      assert.match(USAGE, new RegExp(`\\n  ${common.replace(/[-,]/g, '\\$&')} `));
    assert.match(
      USAGE,
      /Exit codes: 0 done, 1 the run failed, 2 usage error, 130 interrupted \(Ctrl-C\)\.\n$/,
    );
    for (const line of USAGE.split('\n')) assert.ok(line.length <= 108, `too wide: ${line}`);
    assert.equal(usageFor(undefined), USAGE);
  });
});
