import type { Writable } from "node:stream";

/**
 * Writes frames onto a stream, batched and with back-pressure. The frames queued while one turn of
 * the event loop runs (every call a burst of HTTP requests starts, every reply a burst of handlers
 * finishes) go out as one write, so one HTTP/2 DATA frame carries many calls instead of one each.
 * When the stream's buffer is full (`write` returned false) nothing more is written until it
 * drains; what is queued meanwhile waits here.
 */
export class FrameWriter {
  private queue: Buffer[] = [];
  private scheduled = false;
  private blocked = false;
  private ending = false;

  constructor(private readonly stream: Writable) {
    stream.on("drain", () => {
      this.blocked = false;
      this.flush();
    });
  }

  send(frame: Buffer): void {
    this.queue.push(frame);
    if (this.scheduled || this.blocked) return;
    this.scheduled = true;
    setImmediate(this.flushSoon);
  }

  /** Ends the stream once what is queued is written. */
  end(): void {
    this.ending = true;
    if (!this.scheduled && !this.blocked) this.flush();
  }

  private readonly flushSoon = () => {
    this.scheduled = false;
    this.flush();
  };

  private flush(): void {
    if (this.stream.destroyed || this.stream.writableEnded) return;
    if (this.queue.length > 0) {
      const batch = this.queue.length === 1 ? this.queue[0]! : Buffer.concat(this.queue);
      this.queue = [];
      if (!this.stream.write(batch)) this.blocked = true;
    }
    if (this.ending && !this.blocked) this.stream.end();
  }
}
