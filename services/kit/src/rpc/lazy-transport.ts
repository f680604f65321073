import type { Transport } from "@connectrpc/connect";

/**
 * A Transport whose target is set after construction. The embedded runner builds every service
 * module first (they hold clients of each other, sometimes in both directions) and then points
 * each lazy transport at the in-memory router of its service.
 */
export class LazyTransport implements Transport {
  private target: Transport | undefined;

  constructor(private readonly name: string) {}

  bind(target: Transport): void {
    this.target = target;
  }

  private get t(): Transport {
    if (!this.target) throw new Error(`transport to ${this.name} used before it was bound`);
    return this.target;
  }

  unary: Transport["unary"] = (...args) => this.t.unary(...args);
  stream: Transport["stream"] = (...args) => this.t.stream(...args);
}
