import type { Logger } from "pino";
import { MemoryBus } from "./memory-bus.js";
import { NatsBus } from "./nats-bus.js";
import type { Bus } from "./port.js";

export type OpenBusOptions =
  | { kind: "memory"; /** SQLite file, or `:memory:` */ path: string; logger?: Logger }
  | { kind: "nats"; url: string; logger?: Logger; streamName?: string; /** default ["iam.>"] */ subjects?: string[] };

/** The one place a composition root picks the bus adapter (embedded: memory, cluster: nats). */
export async function openBus(options: OpenBusOptions): Promise<Bus> {
  switch (options.kind) {
    case "memory":
      return new MemoryBus({ path: options.path, ...(options.logger ? { logger: options.logger } : {}) });
    case "nats":
      return NatsBus.connect({
        url: options.url,
        ...(options.logger ? { logger: options.logger } : {}),
        ...(options.streamName ? { streamName: options.streamName } : {}),
        ...(options.subjects ? { subjects: options.subjects } : {}),
      });
  }
}
