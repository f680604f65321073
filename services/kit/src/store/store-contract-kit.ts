import { IamError, type IamErrorCode } from "../errors.js";
import type { Clock, Collection, CollectionSpec, Doc, Store } from "./port.js";

/** A clock tests move by hand; starts at a fixed instant so expiry times are reproducible. */
export class TestClock implements Clock {
  static readonly START = 1_700_000_000_000;
  t = TestClock.START;
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** What each part of the contract suite gets from describeStoreContract. */
export interface ContractContext {
  clock: TestClock;
  store(): Store;
  /** A new, empty collection with a name unique within the run. */
  fresh<T extends Doc = Doc>(spec?: Omit<CollectionSpec, "name">): Promise<Collection<T>>;
}

/** Awaits a rejection and checks it is an IamError with this code (and field, when given). */
export async function rejectsWith(p: Promise<unknown>, code: IamErrorCode, field?: string): Promise<IamError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(IamError);
  const iam = err as IamError;
  expect(iam.code).toBe(code);
  if (field !== undefined) expect(iam.field).toBe(field);
  return iam;
}

export const ids = (docs: Array<{ _id: string }>): string[] => docs.map((d) => d._id);
export const sortedIds = (docs: Array<{ _id: string } | null>): string[] =>
  docs.filter((d): d is { _id: string } => d !== null).map((d) => d._id).sort();
