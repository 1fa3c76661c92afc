/**
 * Writing the command line's output as it is made, without holding it: `process.stdout.write` to
 * a pipe queues what the reader has not taken yet (a 150 MB export piped to a slow reader was
 * held whole in memory); this writes each piece before going on, waiting while the pipe is full.
 */
import * as fs from 'node:fs';

/** Made on the first wait. */
let pauseCell: Int32Array | undefined;

/**
 * Writes all of `text` (UTF-8) to `fd`, waiting while it takes no more (a full non-blocking
 * pipe); throws what the system says otherwise (EPIPE: the reader is gone).
 *
 * @example writeAllSync(1, chunk)
 */
export function writeAllSync(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  let pause = 1;
  while (at < bytes.length) {
    try {
      at += fs.writeSync(fd, bytes, at, bytes.length - at);
      pause = 1;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      pauseCell ??= new Int32Array(new SharedArrayBuffer(4));
      Atomics.wait(pauseCell, 0, 0, pause);
      pause = Math.min(pause * 2, 16);
    }
  }
}

/**
 * Gathers small pieces of output into writes of about `size` characters: one write per record
 * of a year of papers would be a hundred thousand system calls.
 *
 * @example
 * const out = new Batched((text) => writeAllSync(1, text));
 * for (const chunk of chunks) out.add(chunk);
 * out.flush();
 */
export class Batched {
  private parts: string[] = [];
  private length = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly size = 1 << 20,
  ) {}

  add(text: string): void {
    this.parts.push(text);
    this.length += text.length;
    if (this.length >= this.size) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    const text = this.parts.join('');
    this.parts = [];
    this.length = 0;
    this.write(text);
  }
}
