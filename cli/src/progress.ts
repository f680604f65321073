/**
 * A progress bar on stderr, drawn only when stderr is a terminal: piped or captured output stays
 * free of control characters, and stdout keeps only the result.
 */
export class Progress {
  private readonly tty = Boolean(process.stderr.isTTY);
  private lastDrawn = 0;

  constructor(private readonly total: number, private readonly label: string) {}

  update(done: number): void {
    if (!this.tty) return;
    const now = Date.now();
    if (done < this.total && now - this.lastDrawn < 100) return;
    this.lastDrawn = now;
    const width = 30;
    const filled = this.total === 0 ? width : Math.round((done / this.total) * width);
    const pct = this.total === 0 ? 100 : Math.floor((done / this.total) * 100);
    process.stderr.write(`\r${this.label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${this.total} ${pct}%`);
  }

  finish(): void {
    if (this.tty) process.stderr.write("\n");
  }
}
