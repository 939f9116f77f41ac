// A spinner with the elapsed time on stderr, so a terminal user can tell "working" from "stuck". It draws
// only on a TTY, and steps aside for every line of output (clear, write, redraw) and while a question is
// asked. In a pipe it does nothing: logs get no control characters.
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const INTERVAL_MS = 100;

export class Progress {
  readonly #stream: NodeJS.WriteStream;
  readonly #enabled: boolean;
  readonly #started = Date.now();
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;
  #label = 'working';
  #drawn = false;
  #paused = false;

  constructor(stream: NodeJS.WriteStream = process.stderr) {
    this.#stream = stream;
    this.#enabled = stream.isTTY === true && process.env.TERM !== 'dumb';
  }

  start(): void {
    if (!this.#enabled || this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.#draw(), INTERVAL_MS);
    this.#timer.unref();
  }

  /** What the spinner says it is waiting for. */
  set label(label: string) {
    this.#label = label;
  }

  /** Runs `write` with the spinner line out of the way. */
  around(write: () => void): void {
    this.#clear();
    write();
    this.#draw();
  }

  pause(): void {
    this.#paused = true;
    this.#clear();
  }

  resume(): void {
    this.#paused = false;
    this.#draw();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#clear();
  }

  #draw(): void {
    if (!this.#enabled || this.#paused || this.#timer === undefined) return;
    const seconds = Math.floor((Date.now() - this.#started) / 1000);
    const frame = FRAMES[this.#frame++ % FRAMES.length] ?? '';
    this.#stream.write(`\r\x1b[K${frame} ${this.#label}… ${seconds}s`);
    this.#drawn = true;
  }

  #clear(): void {
    if (!this.#drawn) return;
    this.#stream.write('\r\x1b[K');
    this.#drawn = false;
  }
}
