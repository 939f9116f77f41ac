// Loads wire transcripts captured from the real CLI (test/fixtures/transcripts/*.jsonl) and replays their
// control traffic through a ControlChannel, so a test can compare what Warden writes with what the
// official SDK wrote on the same wire.
//
// Transcript lines: {"ts","t","dir":"in"|"out"|"meta","msg"?,"event"?}. `in` went to the CLI's stdin
// (written by the official SDK), `out` came from its stdout, `meta` records spawn / stdin_end / exit.
import { readFileSync } from 'node:fs';
import { ControlChannel } from '../../../src/control/control-channel.js';
import { ControlChannelClosedError } from '../../../src/protocol/errors.js';
import type { WardenError } from '../../../src/protocol/errors.js';
import { FrameRecorder, deferred, drainCallbacks } from './frame-recorder.js';
import type { Deferred, Frame } from './frame-recorder.js';

export interface TranscriptEntry {
  dir: 'in' | 'out' | 'meta';
  /** Milliseconds since the epoch. */
  t: number;
  msg?: Frame;
  event?: string;
}

const FIXTURES = new URL('../../fixtures/transcripts/', import.meta.url);

export function loadTranscript(name: string): TranscriptEntry[] {
  const text = readFileSync(new URL(`${name}.jsonl`, FIXTURES), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TranscriptEntry);
}

/** What the CLI wrote on stdout, in order. */
export function cliFrames(entries: TranscriptEntry[]): Frame[] {
  return entries.flatMap((entry) => (entry.dir === 'out' && entry.msg !== undefined ? [entry.msg] : []));
}

/** What the host (the official SDK) wrote on the CLI's stdin, in order. */
export function hostFrames(entries: TranscriptEntry[]): Frame[] {
  return entries.flatMap((entry) => (entry.dir === 'in' && entry.msg !== undefined ? [entry.msg] : []));
}

/** The first CLI frame that matches, or a thrown assertion naming what was missing. */
export function firstCliFrame(
  entries: TranscriptEntry[],
  predicate: (frame: Frame) => boolean,
  what: string,
): Frame {
  const frame = cliFrames(entries).find(predicate);
  if (frame === undefined) throw new Error(`the transcript has no ${what}`);
  return frame;
}

/** A request the CLI sent to the host. */
export interface InboundExchange {
  requestId: string;
  request: Frame;
  /** The line the official SDK wrote in reply, if it replied. */
  recordedReply: Frame | undefined;
  /** The line the channel wrote in reply, if it replied. */
  reply: Frame | undefined;
  /** The CLI withdrew the request with control_cancel_request. */
  withdrawn: boolean;
}

/** A request the host sent to the CLI. */
export interface OutboundExchange {
  subtype: string;
  recordedFrame: Frame;
  frame: Frame;
  /** The CLI's control_response, as recorded. */
  recordedResponse: Frame | undefined;
  outcome: PromiseSettledResult<Record<string, unknown>>;
}

export interface ReplayReport {
  inbound: InboundExchange[];
  outbound: OutboundExchange[];
  /** CLI frames the channel did not consume (receive() returned false): the consumer's messages. */
  passedOn: Frame[];
  /** CLI control frames receive() did not claim (should be empty). */
  unclaimedControlFrames: Frame[];
  errors: WardenError[];
  written: Frame[];
}

export interface ReplayOptions {
  /**
   * The host's answer to an inbound request (the success payload), given when the transcript shows the
   * recorded host answering. Throw to answer with an error. Defaults to echoing the recorded payload.
   */
  answer?: (request: Frame, recordedReply: Frame) => Record<string, unknown> | undefined;
}

/**
 * Replays a transcript's control traffic through a fresh ControlChannel, in transcript order:
 * - host control requests are re-issued with channel.request(); CLI responses to them are fed back with
 *   the recorded request_id rewritten to the channel's own;
 * - CLI requests are fed to receive(); the handler parks until the point where the recorded host
 *   answered, then answers with `options.answer`;
 * - every other CLI frame is fed to receive() and must come back unclaimed.
 */
export async function replayTranscript(
  entries: TranscriptEntry[],
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const answer =
    options.answer ?? ((_request: Frame, recorded: Frame) => recorded.response?.response as Frame);
  const recorder = new FrameRecorder();
  const errors: WardenError[] = [];
  const channel = new ControlChannel({ write: recorder.write, onError: (error) => errors.push(error) });
  const report: ReplayReport = {
    inbound: [],
    outbound: [],
    passedOn: [],
    unclaimedControlFrames: [],
    errors,
    written: recorder.frames,
  };
  const inbound = new Map<string, InboundExchange>();
  const parked = new Map<string, Deferred<Record<string, unknown> | undefined>>();
  const ourIds = new Map<string, string>();
  const outcomes: Promise<void>[] = [];

  const subtypes = new Set(
    cliFrames(entries).flatMap((frame) =>
      frame.type === 'control_request' ? [String(frame.request?.subtype)] : [],
    ),
  );
  for (const subtype of subtypes) {
    channel.handle(subtype, (_request, { requestId }) => {
      const answer = deferred<Record<string, unknown> | undefined>();
      parked.set(requestId, answer);
      return answer.promise;
    });
  }

  for (const entry of entries) {
    const msg = entry.msg;
    if (msg === undefined) continue;
    if (entry.dir === 'in' && msg.type === 'control_request') {
      const { subtype, ...body } = msg.request as Frame;
      const before = recorder.frames.length;
      const settled = channel.request(String(subtype), body);
      const frame = recorder.frames[before];
      if (frame === undefined) throw new Error(`request(${String(subtype)}) wrote nothing synchronously`);
      ourIds.set(String(msg.request_id), String(frame.request_id));
      const exchange: Partial<OutboundExchange> = { subtype: String(subtype), recordedFrame: msg, frame };
      report.outbound.push(exchange as OutboundExchange);
      outcomes.push(
        settled.then(
          (value) => void (exchange.outcome = { status: 'fulfilled', value }),
          (reason: unknown) => void (exchange.outcome = { status: 'rejected', reason }),
        ),
      );
    } else if (entry.dir === 'in' && msg.type === 'control_response') {
      const requestId = String(msg.response?.request_id);
      const exchange = inbound.get(requestId);
      const pending = parked.get(requestId);
      if (exchange === undefined || pending === undefined)
        throw new Error(`host reply to unknown request ${requestId}`);
      exchange.recordedReply = msg;
      try {
        pending.resolve(answer(exchange.request, msg));
      } catch (error) {
        pending.reject(error);
      }
      if (exchange.withdrawn) {
        // The channel must stay silent: let the handler's answer reach it, then look.
        await drainCallbacks();
        exchange.reply = recorder.replyTo(requestId);
      } else {
        exchange.reply = await recorder.waitForReplyTo(requestId);
      }
    } else if (entry.dir === 'out') {
      feed(msg);
    }
  }

  function feed(msg: Frame): void {
    let frame = msg;
    if (msg.type === 'control_response') {
      const ours = ourIds.get(String(msg.response?.request_id));
      if (ours !== undefined) {
        frame = { ...msg, response: { ...msg.response, request_id: ours } };
        const exchange = report.outbound.find((candidate) => candidate.frame.request_id === ours);
        if (exchange !== undefined) exchange.recordedResponse = msg;
      }
    }
    if (msg.type === 'control_request') {
      const exchange: InboundExchange = {
        requestId: String(msg.request_id),
        request: msg.request as Frame,
        recordedReply: undefined,
        reply: undefined,
        withdrawn: false,
      };
      inbound.set(exchange.requestId, exchange);
      report.inbound.push(exchange);
    }
    if (msg.type === 'control_cancel_request') {
      const exchange = inbound.get(String(msg.request_id));
      if (exchange !== undefined) exchange.withdrawn = true;
    }
    const claimed = channel.receive(frame);
    const isControl = ['control_request', 'control_response', 'control_cancel_request'].includes(
      String(msg.type),
    );
    if (!claimed) report.passedOn.push(frame);
    if (isControl && !claimed) report.unclaimedControlFrames.push(frame);
  }

  // Whatever is still open now never got its answer in the transcript: close it, then collect outcomes.
  channel.dispose(new ControlChannelClosedError('the replay ended'));
  for (const pending of parked.values()) pending.reject(new Error('the replay ended'));
  await Promise.all(outcomes);
  return report;
}

/** A copy of a frame without its request ids, for comparing lines whose ids differ by design. */
export function withoutRequestIds(frame: Frame): Frame {
  return JSON.parse(
    JSON.stringify(frame, (key, value: unknown) => (key === 'request_id' ? '<id>' : value)),
  ) as Frame;
}
