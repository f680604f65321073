/**
 * One webhook's bounded queue in one process: at most `capacity` claimed deliveries (waiting or
 * in flight), at most `concurrency` at once. A slow receiver fills only its own queue; what does
 * not fit stays in the store, due, for a later tick, so nothing is dropped and no other webhook
 * (nor any login, which only publishes its event) waits for it.
 */
export class WebhookQueue {
  private readonly waiting: Array<() => Promise<void>> = [];
  private running = 0;

  constructor(private readonly capacity: number, private readonly concurrency: number) {}

  get depth(): number {
    return this.waiting.length + this.running;
  }

  get full(): boolean {
    return this.depth >= this.capacity;
  }

  /** Queues a job; false when the queue is full. The promise settles when the job has run. */
  offer(job: () => Promise<void>): Promise<void> | null {
    if (this.full) return null;
    return new Promise<void>((resolve) => {
      this.waiting.push(async () => {
        try {
          await job();
        } finally {
          resolve();
        }
      });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length) {
      const job = this.waiting.shift()!;
      this.running++;
      void job().finally(() => {
        this.running--;
        this.pump();
      });
    }
  }
}
