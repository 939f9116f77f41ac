// `warden serve` (the API and web UI over this data directory) and `warden demo` (the same, offline).
import { WEBHOOK_FORMATS, type WebhookFormat } from '../../server/notify/formats.js';
import { isHttpUrl, isPushSubject } from '../../server/notify/notify-options.js';
import { compileTwoPersonRules } from '../../policy/two-person.js';
import { parseDuration } from '../duration.js';
import type { Command } from './command.js';
import { CLAUDE, DATA_DIR, HOST, HOST_NAME, oneOf, PORT, STORE } from './flags.js';
import { booleanFlag, defineCommand, stringFlag, stringsFlag, type OptionToken } from './parser.js';
import { UsageError } from './usage-error.js';
import { DECIDER_NAME } from '../../server/deciders.js';
import type { WebhookTarget } from '../../server/notify/webhook-channel.js';
import { parseRouteSpec } from './route-spec.js';

export const SERVE = defineCommand({
  name: 'serve',
  synopsis: 'serve',
  summary: 'Start the HTTP/WebSocket API and the web UI; prints the login link',
  positionals: [],
  flags: {
    port: { ...PORT, help: 'where it listens', defaultHelp: '4390' },
    host: {
      ...HOST,
      help: 'the address it listens on; any other than 127.0.0.1 exposes the server to that network',
      defaultHelp: '127.0.0.1',
    },
    'stop-agents': booleanFlag({
      help:
        'on Ctrl-C/SIGTERM end the agents too (default: they keep running, detached, and the next serve ' +
        'on the same data dir re-attaches with their approvals)',
    }),
    webhook: stringsFlag({
      placeholder: 'URL',
      help:
        'POST each approval (a preview of its input, single-use allow/deny links) and its settling to ' +
        'this http(s) URL, signed; repeatable',
      defaultHelp: 'none',
      check: (text) => {
        const given: string = text;
        if (!isHttpUrl(text)) throw new UsageError(`--webhook must be an http(s) URL, got '${given}'`);
        return text;
      },
    }),
    'webhook-format': stringsFlag({
      placeholder: 'F',
      help: `${WEBHOOK_FORMATS.join(' | ')}, for the --webhook before it`,
      defaultHelp: 'json',
      check: oneOf('webhook-format', WEBHOOK_FORMATS),
    }),
    'webhook-decider': stringsFlag({
      placeholder: 'NAME',
      help: 'for the --webhook before it: send only the approvals decider NAME may answer',
      defaultHelp: 'every approval',
      check: (text) => {
        if (!DECIDER_NAME.test(text))
          throw new UsageError(`--webhook-decider must be a decider's name, got '${text}'`);
        return text;
      },
    }),
    route: stringsFlag({
      placeholder: 'SPEC',
      help:
        'what happens to approvals nobody answers, e.g. name=ops;remind=5m;escalate=10m;to=bob,ops;' +
        'project=/srv/app (also tool=, rule=, risk=): remind, then let `to` answer too; repeatable, the ' +
        'first that covers an approval applies',
      defaultHelp: 'none',
      check: parseRouteSpec,
    }),
    'web-push': booleanFlag({
      help: 'let browsers subscribe from the UI to Web Push of approvals',
      defaultHelp: 'off',
    }),
    'push-contact': stringFlag({
      placeholder: 'URL',
      help: 'with --web-push: the mailto: or https: contact the push services see',
      defaultHelp: 'mailto:warden@localhost',
      check: (text) => {
        if (!isPushSubject(text))
          throw new UsageError(`--push-contact must be a mailto: or https: URL, got '${text}'`);
        return text;
      },
    }),
    'park-after': stringFlag({
      placeholder: 'D',
      help:
        "stop an agent's CLI once it has had nothing to do for D (30s, 10m, 2h; 0 or never: keep it); " +
        'its next message resumes it',
      defaultHelp: '10m',
      check: (text) => {
        const ms = parseDuration(text);
        if (ms === undefined)
          throw new UsageError(
            `--park-after must be a duration such as 30s, 10m or 2h (at most 24 days), or 0 or never, got '${text}'`,
          );
        return ms;
      },
    }),
    'detached-idle': stringFlag({
      placeholder: 'D',
      help:
        'after Ctrl-C, an idle agent left running detached ends by itself once D passes with no serve ' +
        're-attaching it (0 or never: it waits); a busy one always waits; its next message resumes it',
      defaultHelp: '30m',
      check: (text) => {
        const ms = parseDuration(text);
        if (ms === undefined)
          throw new UsageError(
            `--detached-idle must be a duration such as 30s, 30m or 2h (at most 24 days), or 0 or never, got '${text}'`,
          );
        return ms;
      },
    }),
    'require-two': stringsFlag({
      placeholder: 'R',
      help:
        "approvals that need two different deciders' allows: protected-writes, full-access (every " +
        'approval of a full-access thread) or a rule such as Bash(git push:*); repeatable',
      defaultHelp: 'none',
      check: (text) => {
        try {
          compileTwoPersonRules([text], '--require-two');
        } catch (error) {
          throw new UsageError(error instanceof Error ? error.message : String(error));
        }
        return text;
      },
    }),
    store: {
      ...STORE,
      help:
        'keep the event log in PostgreSQL, postgres://user@host:port/database; spools and keys stay in ' +
        'the data dir',
      defaultHelp: '$WARDEN_STORE_URL, else SQLite in the data dir',
    },
    'host-name': HOST_NAME,
    'data-dir': DATA_DIR,
    claude: CLAUDE,
  },
  build({ values, options }): Command {
    const contact = values['push-contact'];
    if (contact !== undefined && values['web-push'] !== true)
      throw new UsageError('--push-contact goes with --web-push');
    const webhooks = pairWebhooks(options);
    const parkAfterMs = values['park-after'];
    const detachedIdleMs = values['detached-idle'];
    const requireTwo = values['require-two'];
    return {
      name: 'serve',
      ...(values.port === undefined ? {} : { port: values.port }),
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values['stop-agents'] === true ? { stopAgents: true } : {}),
      ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
      ...(values.claude === undefined ? {} : { claude: values.claude }),
      ...(values.store === undefined ? {} : { store: values.store }),
      ...(values['host-name'] === undefined ? {} : { hostName: values['host-name'] }),
      ...(webhooks.length === 0 ? {} : { webhooks }),
      ...(values.route === undefined ? {} : { routes: values.route }),
      ...(values['web-push'] === true ? { webPush: contact === undefined ? {} : { subject: contact } } : {}),
      ...(parkAfterMs === undefined ? {} : { parkAfterMs }),
      ...(detachedIdleMs === undefined ? {} : { detachedIdleMs }),
      ...(requireTwo === undefined || requireTwo.length === 0 ? {} : { requireTwo }),
    };
  },
});

/**
 * `--webhook URL [--webhook-format F] [--webhook-decider NAME]`, in order: a format or decider applies to
 * the URL given before it.
 */
function pairWebhooks(options: readonly OptionToken[]): WebhookTarget[] {
  const webhooks: WebhookTarget[] = [];
  let formatted = true;
  for (const { name, value } of options) {
    if (name === 'webhook') {
      webhooks.push({ url: value ?? '', format: 'json' });
      formatted = false;
    } else if (name === 'webhook-decider') {
      const last = webhooks.at(-1);
      if (last === undefined || last.decider !== undefined)
        throw new UsageError('--webhook-decider goes after the --webhook it applies to');
      last.decider = value ?? '';
    } else if (name === 'webhook-format') {
      const last = webhooks.at(-1);
      if (last === undefined || formatted)
        throw new UsageError('--webhook-format goes after the --webhook it applies to');
      last.format = value as WebhookFormat;
      formatted = true;
    }
  }
  return webhooks;
}

export const DEMO = defineCommand({
  name: 'demo',
  synopsis: 'demo',
  summary:
    'Start a scripted demo (no API key needed): a background subagent asks for permission, then the ' +
    'agent asks you a question and shows its plan',
  positionals: [],
  flags: {
    port: { ...PORT, help: 'where it listens', defaultHelp: 'any free port' },
    host: { ...HOST, help: 'the address it listens on, as for serve', defaultHelp: '127.0.0.1' },
  },
  build: ({ values }): Command => ({
    name: 'demo',
    ...(values.port === undefined ? {} : { port: values.port }),
    ...(values.host === undefined ? {} : { host: values.host }),
  }),
});
