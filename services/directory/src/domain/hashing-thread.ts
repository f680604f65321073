import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from "node:worker_threads";
import { runHashJob, type HashJob, type HashReply } from "./hash-job.js";
import { ReplyBatcher, type BatchLimits } from "./reply-batcher.js";

/**
 * The body of a hashing thread (started by hashing-pool.ts): runs the jobs the event loop posts,
 * one at a time and in order, and posts the replies back in batches (reply-batcher.ts).
 */
export function serveHashJobs(port: MessagePort, limits: BatchLimits): void {
  const queue: HashJob[] = [];
  const batcher = new ReplyBatcher<HashReply>(limits);

  // Jobs posted while one runs wait in the port; taking them before deciding whether to hold a
  // reply makes "another job is waiting" true whenever one is.
  const pull = () => {
    for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) queue.push(...(m.message as HashJob[]));
  };
  const drain = () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const start = performance.now();
      const reply = runHashJob(job);
      pull();
      const batch = batcher.add(reply, queue.length > 0, performance.now() - start);
      if (batch) port.postMessage(batch);
    }
  };
  // drain() is synchronous and empties the queue, so it never runs twice at once.
  port.on("message", (jobs: HashJob[]) => {
    queue.push(...jobs);
    drain();
  });
}

/** What hashing-pool.ts passes as `workerData`; its presence marks a thread started for this. */
export interface HashingThreadData {
  hashingThread: { limits: BatchLimits };
}

const data = workerData as Partial<HashingThreadData> | null;
if (parentPort && data?.hashingThread) serveHashJobs(parentPort, data.hashingThread.limits);
