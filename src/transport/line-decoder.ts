// NDJSON decoder working on raw bytes. Lines are decoded to text only once they are complete, so a UTF-8
// character split across two chunks is never mangled, and the size cap is checked against the partial line
// so that an endless line is refused long before it is buffered whole.

import { FrameTooLargeError } from '../protocol/errors.js';

export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const EXCERPT_CHARS = 200;

/** A line that was not delivered as a frame. Reported, never thrown: the CLI may print debug noise. */
export interface LineDiagnostic {
  readonly kind: 'non_json' | 'truncated_tail';
  /** The start of the line, at most 200 characters. */
  readonly excerpt: string;
  readonly byteLength: number;
}

export interface LineDecoderOptions {
  readonly onFrame: (frame: Record<string, unknown>) => void;
  readonly onDiagnostic?: (diagnostic: LineDiagnostic) => void;
  readonly maxFrameBytes?: number;
}

export class LineDecoder {
  readonly #onFrame: (frame: Record<string, unknown>) => void;
  readonly #onDiagnostic: (diagnostic: LineDiagnostic) => void;
  readonly #maxFrameBytes: number;
  #parts: Buffer[] = [];
  #partBytes = 0;

  constructor(options: LineDecoderOptions) {
    this.#onFrame = options.onFrame;
    this.#onDiagnostic = options.onDiagnostic ?? (() => undefined);
    this.#maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  }

  /** Bytes of the incomplete line held back until its newline arrives. */
  get pendingBytes(): number {
    return this.#partBytes;
  }

  /**
   * Delivers every complete line of `chunk` through `onFrame`, in order. Throws FrameTooLargeError after
   * delivering the lines that precede the oversized one; the decoder is then unusable.
   */
  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      const line = this.#partBytes === 0 ? piece : this.#takeParts(piece);
      const content = stripCarriageReturn(line);
      if (content.length > this.#maxFrameBytes) this.#refuse(content.length);
      this.#decodeLine(content);
    }
    const rest = chunk.length - start;
    if (rest === 0) return;
    // One byte of slack: the partial line may end with the '\r' of a CRLF that is not counted.
    if (this.#partBytes + rest > this.#maxFrameBytes + 1) this.#refuse(this.#partBytes + rest);
    this.#parts.push(chunk.subarray(start));
    this.#partBytes += rest;
  }

  /** The stream ended. A last line without its newline is reported as truncated, not delivered. */
  end(): void {
    if (this.#partBytes === 0) return;
    const line = stripCarriageReturn(this.#takeParts(Buffer.alloc(0)));
    const text = line.toString('utf8');
    if (text.trim() !== '') this.#report('truncated_tail', text, line.length);
  }

  #takeParts(last: Buffer): Buffer {
    this.#parts.push(last);
    const whole = Buffer.concat(this.#parts, this.#partBytes + last.length);
    this.#parts = [];
    this.#partBytes = 0;
    return whole;
  }

  #decodeLine(line: Buffer): void {
    const text = line.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (text.trim() !== '') this.#report('non_json', text, line.length);
      return;
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      this.#onFrame(value as Record<string, unknown>);
    } else {
      this.#report('non_json', text, line.length);
    }
  }

  #refuse(size: number): never {
    this.#parts = [];
    this.#partBytes = 0;
    throw new FrameTooLargeError(this.#maxFrameBytes, size);
  }

  #report(kind: LineDiagnostic['kind'], text: string, byteLength: number): void {
    this.#onDiagnostic({ kind, excerpt: excerptOf(text), byteLength });
  }
}

function stripCarriageReturn(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN ? line.subarray(0, -1) : line;
}

function excerptOf(text: string): string {
  if (text.length <= EXCERPT_CHARS) return text;
  const cut = text.slice(0, EXCERPT_CHARS);
  // Do not end on half a surrogate pair.
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
