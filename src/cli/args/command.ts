// What a command line asks for, once parsed and checked: the input of each command module.
import type { DeciderRole } from '../../server/deciders.js';
import type { ApprovalRoute, ApprovalScope } from '../../supervisor/index.js';
import type { WebhookFormat } from '../../server/notify/formats.js';
import type { AuditFormat } from '../../server/audit-export.js';
import type { ThreadDeadlines, ThreadMode } from '../../store/records.js';

/** Where the running server of the data directory is reached, when the line says. */
export interface ServerFlags {
  port?: number;
  host?: string;
  dataDir?: string;
}

export type InboxBehavior = 'allow' | 'allow_always' | 'deny';

export type Command =
  | { name: 'help' }
  | { name: 'version' }
  | {
      name: 'run';
      prompt: string;
      cwd: string;
      mode: ThreadMode;
      model?: string;
      /** The agent CLI: Claude Code unless `codex`. */
      agent?: 'codex';
      policy: 'yes' | 'deny' | 'ask' | 'auto';
      /** Run offline with the demo's scripted model, in temporary directories. */
      demo?: boolean;
      dataDir?: string;
      claude?: string;
    }
  | ({
      name: 'inbox';
      /** Answer one approval and ask nothing; without it, list the pending ones (and ask). */
      answer?: { approvalId: string; behavior: InboxBehavior; message?: string };
      json?: boolean;
      ask?: boolean;
    } & ServerFlags)
  | ({
      name: 'serve';
      stopAgents?: boolean;
      claude?: string;
      webhooks?: { url: string; format: WebhookFormat; decider?: string }[];
      /** What happens to approvals nobody answers (supervisor/approvals/routes.ts). */
      routes?: ApprovalRoute[];
      webPush?: { subject?: string };
      /** Park an idle CLI after this many ms (0: never); absent, the supervisor's default. */
      parkAfterMs?: number;
      /** An idle agent left detached at Ctrl-C ends after this many ms with no server (0: never). */
      detachedIdleMs?: number;
      /** A postgres:// URL: the event log lives there instead of SQLite in the data dir. */
      store?: string;
      /** With `store`: this host's name in the fleet. */
      hostName?: string;
      /** Two-person rules: kinds and rule patterns whose approvals need two deciders' allows. */
      requireTwo?: string[];
    } & ServerFlags)
  | { name: 'hosts'; store?: string; json?: boolean }
  | ({
      name: 'agents';
      /** `agents stop`: end them; without it, list them. */
      stop?: { threadId: string } | { all: true };
      json?: boolean;
    } & ServerFlags)
  | { name: 'demo'; port?: number; host?: string; claude?: string }
  | ({ name: 'login' } & ServerFlags)
  | ({
      name: 'status';
      /** A postgres:// URL: read the fleet's log there instead of SQLite in the data dir. */
      store?: string;
      /** With `store`: the host whose CLIs run on this machine (their pids are checked here). */
      hostName?: string;
    } & ServerFlags)
  | ({
      name: 'token';
      action: 'create' | 'list' | 'revoke' | 'login';
      /** The decider's name, checked; every action but list has one. */
      decider?: string;
      /** With create: the new decider's role (approver unless said). */
      role?: DeciderRole;
      /** With create: the approvals it answers (absent: all). */
      scope?: ApprovalScope;
      json?: boolean;
    } & ServerFlags)
  | {
      name: 'hook';
      action: 'install' | 'uninstall' | 'status';
      /** Which Claude Code settings file: the user's, or this folder's personal one. */
      scope: 'user' | 'project';
      /** With install: the server's URL; absent, wherever the data dir's running server recorded it. */
      server?: string;
      /** With install: how long a permission request waits for an answer in Warden. */
      waitMs?: number;
      /** The same for a headless session (`claude -p`, nobody at its terminal). */
      headlessWaitMs?: number;
      /** Write without asking. */
      yes?: boolean;
      dataDir?: string;
    }
  | ({
      name: 'policy';
      action: 'simulate';
      change: {
        allow?: string[];
        deny?: string[];
        remove?: string[];
        mode?: ThreadMode;
        /** In place of the threads' deadlines: which past asks one would have answered. */
        deadlines?: ThreadDeadlines;
      };
      scope: { threadId: string } | { cwd: string } | 'all';
      /** ISO date-times: requests at or after `since`, before `until`. */
      since?: string;
      until?: string;
      json?: boolean;
    } & ServerFlags)
  | ({
      name: 'audit';
      /** `audit verify`: check the chain instead of printing the records. */
      verify?: boolean;
      format: AuditFormat;
      /** Records from then on, as an ISO date-time. */
      since?: string;
      store?: string;
    } & ServerFlags);

/** The parsed line of one command. */
export type CommandOf<N extends Command['name']> = Extract<Command, { name: N }>;
