import { IamError } from "../../../kit/src/errors.js";
import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/** A DPoP proof's jti already seen, kept until the proof would be refused for its age anyway. */
export interface SpentDpopProofRecord extends Doc {
  /** The realm's name (what the endpoints are addressed by). */
  realm: string;
  expiresAt: number;
}

/**
 * The jtis of DPoP proofs already used (RFC 9449 section 11.1: the server keeps the jtis of
 * proofs it accepted for as long as their `iat` lets them be accepted, and refuses a second use).
 * In the token service's store, not memory, so a replay sent to another replica is refused too.
 * The key is the proof key's thumbprint with the jti (section 4.3 item 12 scopes the check to
 * the key), so clients cannot spend each other's jtis; records expire with the TTL collection.
 */
export class DpopJtiRepository {
  private constructor(private readonly spent: Collection<SpentDpopProofRecord>) {}

  static async open(store: Store): Promise<DpopJtiRepository> {
    return new DpopJtiRepository(await store.collection<SpentDpopProofRecord>({ name: "spent_dpop_proofs", ttl: true }));
  }

  /** Spends the jti: true the first time, false on a replay. Atomic: an insert by its unique key. */
  async spend(realm: string, jkt: string, jti: string, expiresAt: number): Promise<boolean> {
    try {
      await this.spent.insert({ _id: `${realm}\0${jkt}\0${jti}`, realm, expiresAt });
      return true;
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") return false;
      throw e;
    }
  }
}
