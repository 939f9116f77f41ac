// Splits a byte stream into lines and parses each as JSON; a line that is not JSON is kept as raw text so
// a test can see it. Small on purpose: these tests drive the CLI without Warden's own transport.
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

// Wire frames are loosely typed on purpose: tests reach into whatever the CLI sends.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Frame = Record<string, any>;

export function readJsonLines(stream: Readable, onFrame: (frame: Frame) => void, onEnd: () => void): void {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const emit = (line: string): void => {
    if (line.trim() === '') return;
    try {
      const value: unknown = JSON.parse(line);
      onFrame(typeof value === 'object' && value !== null ? value : { type: '__non_object', value });
    } catch {
      onFrame({ type: '__non_json', raw: line });
    }
  };
  stream.on('data', (chunk: Buffer) => {
    pending += decoder.write(chunk);
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      emit(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  });
  stream.on('end', () => {
    emit(pending + decoder.end());
    onEnd();
  });
  stream.on('error', () => onEnd());
}
