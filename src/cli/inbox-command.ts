// `warden inbox`: the approvals waiting in the running server of a data directory, across threads — the
// thread's title, the tool, what it would act on (made safe for the terminal: agent text stays inert) and
// how long it has waited — answered one at a time: allow, always (with the exact rules it adds and the
// scope asked next), deny with a typed reason, deny and stop the turn, skip; the model's questions with
// their options, a plan to approve or send back (answer-dialogs.ts). One that is settled elsewhere while it is asked (the browser, a subagent ending)
// stops being asked. `--json` lists them for scripts; `warden inbox allow|always|deny ID` answers one.
// It talks to the server recorded in the data directory only (or the --host/--port given), never a guess.
import { ConflictError, NotFoundError, ValidationError } from '../protocol/errors.js';
import type { ApprovalItem, ThreadListResponse } from '../server/api-schema.js';
import { parseAnswer, AnswerReader } from './answer-reader.js';
import { approvalQuestion } from './approval-question.js';
import { askPlan, askQuestions, askScope, type DialogDecision, type DialogIo } from './answer-dialogs.js';
import { alwaysLine, stopDenyLine } from './approver.js';
import type { CommandOf } from './args/index.js';
import { defaultDataDir } from './data-dir.js';
import { inboxRows, type InboxRow } from './inbox-rows.js';
import { ServerClient } from './client/server-client.js';
import { styles, type Styles } from './transcript.js';

type InboxCommand = CommandOf<'inbox'>;

const OUTCOME = { allow: 'allowed', allow_always: 'always allowed', deny: 'denied' };

export async function inboxCommand(command: InboxCommand): Promise<number> {
  const dataDir = command.dataDir ?? defaultDataDir();
  let client: ServerClient | undefined;
  try {
    client = ServerClient.locate(dataDir, command);
  } catch (error) {
    process.stderr.write(`warden: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  if (client === undefined) {
    process.stderr.write(
      `warden: no server is running on ${dataDir}: approvals wait in a running warden serve ` +
        '(start it, or pass the --port/--host it listens on)\n',
    );
    return 1;
  }
  const s = styles(process.stdout.isTTY && process.env.NO_COLOR === undefined);
  try {
    if (command.answer !== undefined) return await answerOne(client, command.answer, s);
    const [{ approvals, lastSeq }, { threads }] = await Promise.all([
      client.get<{ approvals: ApprovalItem[]; lastSeq: number }>('/api/approvals?status=pending'),
      client.get<ThreadListResponse>('/api/threads'),
    ]);
    const rows = inboxRows(approvals, threads);
    if (command.json === true) {
      process.stdout.write(
        `${JSON.stringify({ approvals: rows.map((row) => row.json), lastSeq }, null, 2)}\n`,
      );
      return 0;
    }
    if (rows.length === 0) {
      process.stdout.write('No approval is waiting.\n');
      return 0;
    }
    process.stdout.write(`${rows.length} approval${rows.length === 1 ? '' : 's'} waiting:\n`);
    for (const row of rows) process.stdout.write(`  ${row.line(s)}\n`);
    if (process.stdin.isTTY !== true && command.ask !== true) {
      process.stdout.write(
        'Answer them here on a terminal (or with --ask), or one at a time: warden inbox allow|always|deny ID\n',
      );
      return 0;
    }
    return await askEach(client, rows, lastSeq, s);
  } catch (error) {
    process.stderr.write(`warden: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function answerOne(
  client: ServerClient,
  answer: NonNullable<InboxCommand['answer']>,
  s: Styles,
): Promise<number> {
  try {
    await decide(client, answer.approvalId, {
      behavior: answer.behavior,
      ...(answer.message === undefined ? {} : { message: answer.message }),
    });
  } catch (error) {
    if (
      error instanceof ConflictError ||
      error instanceof NotFoundError ||
      error instanceof ValidationError
    ) {
      process.stderr.write(`warden: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  process.stdout.write(`${outcomeLine(answer.behavior, s)}\n`);
  return 0;
}

/** Asks about each row in turn; a row settled elsewhere meanwhile is skipped, or its question withdrawn. */
async function askEach(client: ServerClient, rows: InboxRow[], since: number, s: Styles): Promise<number> {
  const settled = new Map<string, string>();
  let asking: { approvalId: string; abort: AbortController } | undefined;
  const watch = new AbortController();
  const watching = (async () => {
    for await (const event of client.events({ since, signal: watch.signal })) {
      if (event.type === 'approval.decided')
        settled.set(event.data.approvalId, OUTCOME[event.data.behavior] ?? event.data.behavior);
      else if (event.type === 'approval.cancelled' || event.type === 'approval.expired')
        settled.set(event.data.approvalId, event.type === 'approval.cancelled' ? 'cancelled' : 'expired');
      else continue;
      if (asking?.approvalId === event.data.approvalId) asking.abort.abort();
    }
  })().catch(() => undefined);
  const reader = new AnswerReader();
  const echo = process.stdin.isTTY !== true;
  let answered = 0;
  try {
    for (const [index, row] of rows.entries()) {
      const { approval } = row;
      if (settled.has(approval.id)) continue;
      const abort = new AbortController();
      asking = { approvalId: approval.id, abort };
      const always = approval.alwaysAllowRules.length > 0;
      const choices = `allow (y) / ${always ? 'always (a) / ' : ''}deny (n [reason]) / skip (s) / quit (q)? `;
      const io: DialogIo = {
        reader,
        err: (text) => process.stderr.write(text),
        styles: s,
        signal: abort.signal,
        echo,
      };
      process.stderr.write(`\n${s.dim(`[${index + 1}/${rows.length}] ${row.context()}`)}\n`);
      const dialog =
        approval.toolName === 'AskUserQuestion'
          ? askQuestions
          : approval.toolName === 'ExitPlanMode'
            ? askPlan
            : undefined;
      if (dialog !== undefined) {
        const answer = await dialog(io, approval.input);
        if (abort.signal.aborted) {
          process.stderr.write(s.dim(`  answered elsewhere: ${settled.get(approval.id) ?? 'settled'}\n`));
          continue;
        }
        if (answer === null) return finish(answered);
        if (await send(client, approval.id, answer, s)) answered += 1;
        continue;
      }
      process.stderr.write(
        approvalQuestion(approval.toolName, approval.input, approval.subagentDescription, s) +
          alwaysLine(approval.alwaysAllowRules, s) +
          stopDenyLine(s),
      );
      for (;;) {
        process.stderr.write(`  ${choices}`);
        const line = await reader.next(abort.signal);
        if (abort.signal.aborted) {
          process.stderr.write(s.dim(`\n  answered elsewhere: ${settled.get(approval.id) ?? 'settled'}\n`));
          break;
        }
        if (echo && line !== null) process.stderr.write(`${line}\n`);
        const word = line?.trim().toLowerCase();
        if (line === null || word === 'q' || word === 'quit') {
          if (line === null) process.stderr.write('\n');
          return finish(answered);
        }
        if (word === 's' || word === 'skip') break;
        const answer = parseAnswer(line);
        if (answer === undefined || (answer.behavior === 'allow_always' && !always)) {
          process.stderr.write(`  answer y${always ? ', a' : ''}, n (n <reason> to say why), s or q\n`);
          continue;
        }
        let decision: DialogDecision = answer;
        if (answer.behavior === 'allow_always') {
          const scope = await askScope(io, approval.alwaysAllowRules, approval.cwd ?? null);
          if (abort.signal.aborted) {
            process.stderr.write(s.dim(`  answered elsewhere: ${settled.get(approval.id) ?? 'settled'}\n`));
            break;
          }
          if (scope === null) return finish(answered);
          decision = { behavior: 'allow_always', scope, rules: [...approval.alwaysAllowRules] };
        }
        if (await send(client, approval.id, decision, s)) answered += 1;
        break;
      }
    }
    return finish(answered);
  } finally {
    asking = undefined;
    reader.close();
    watch.abort();
    await watching;
  }
}

function finish(answered: number): number {
  process.stderr.write(`${answered} answered.\n`);
  return 0;
}

/** Sends a decision asked here; says how it went. False when it was settled elsewhere first. */
async function send(
  client: ServerClient,
  approvalId: string,
  decision: DialogDecision,
  s: Styles,
): Promise<boolean> {
  try {
    await decide(client, approvalId, decision);
    const scope = decision.scope === undefined ? '' : ` (${SCOPE_WORDS[decision.scope]})`;
    const stopped = decision.interrupt === true ? ', and the turn stopped' : '';
    process.stderr.write(`  ${outcomeLine(decision.behavior, s)}${scope}${stopped}\n`);
    return true;
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    process.stderr.write(s.dim(`  it was already settled elsewhere\n`));
    return false;
  }
}

const SCOPE_WORDS = {
  session: 'for this CLI session',
  thread: 'for this thread',
  project: 'for this project',
};

async function decide(client: ServerClient, approvalId: string, answer: DialogDecision): Promise<void> {
  await client.post(`/api/approvals/${encodeURIComponent(approvalId)}/decision`, {
    ...answer,
    ...(answer.message === undefined ? {} : { message: answer.message.slice(0, 2000) }),
  });
}

function outcomeLine(behavior: 'allow' | 'allow_always' | 'deny', s: Styles): string {
  return behavior === 'deny' ? s.red(`✗ ${OUTCOME[behavior]}`) : s.green(`✓ ${OUTCOME[behavior]}`);
}
