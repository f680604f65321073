/**
 * Runs async tasks one at a time, in call order. Used by the mongo adapter to serialize writes
 * per collection on servers without document-level atomicity (FerretDB v1; see MongoStoreOptions).
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    // The chain continues whether the task succeeds or fails; the caller sees its own outcome.
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
