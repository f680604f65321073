import { SecretBox, generateMasterKey } from "../../../kit/src/crypto/secret-box.js";
import { randomToken, sha256Hex } from "../../../kit/src/crypto/random.js";
import { isEarlierToken, newFamilyId, newRefreshToken, parseRefreshToken, type RefreshFamilyRecord } from "./refresh-family.js";

describe("refresh tokens", () => {
  const secrets = new SecretBox(generateMasterKey());
  const familyId = newFamilyId();
  const family = (over: Partial<RefreshFamilyRecord>) => ({ currentHash: "", previousHashes: [], ...over }) as RefreshFamilyRecord;

  it("carry their family and generation under a tag only this master key makes", () => {
    const { token, hash } = newRefreshToken(secrets, familyId, 7);
    expect(token.split(".").slice(0, 2)).toEqual([familyId, "7"]);
    expect(parseRefreshToken(secrets, token)).toEqual({ familyId, hash, generation: 7 });
    // Another master key (another deployment), or any part changed, and the token is no token.
    expect(parseRefreshToken(new SecretBox(generateMasterKey()), token)).toBeNull();
    const [f, , secret, tag] = token.split(".");
    expect(parseRefreshToken(secrets, `${f}.6.${secret}.${tag}`)).toBeNull();
    expect(parseRefreshToken(secrets, `${f}.7.${randomToken(32)}.${tag}`)).toBeNull();
    for (const bad of ["", familyId, `${familyId}.07.${secret}.${tag}`, `${familyId}.-1.${secret}.${tag}`, `x.7.${secret}.${tag}`, `${token}.x`]) {
      expect(parseRefreshToken(secrets, bad)).toBeNull();
    }
  });

  it("of an earlier generation are recognised however many rotations ago; the current one is not earlier", () => {
    const old = parseRefreshToken(secrets, newRefreshToken(secrets, familyId, 0).token)!;
    const current = newRefreshToken(secrets, familyId, 1000);
    const f = family({ currentHash: current.hash, generation: 1000 });
    expect(isEarlierToken(f, old)).toBe(true);
    expect(isEarlierToken(f, parseRefreshToken(secrets, current.token)!)).toBe(false);
  });

  it("of the first format (<familyId>.<random>) stay valid, recognised as earlier by the hashes the family kept", () => {
    const secret = randomToken(32);
    const legacy = parseRefreshToken(secrets, `${familyId}.${secret}`)!;
    expect(legacy).toEqual({ familyId, hash: sha256Hex(secret) });
    expect(isEarlierToken(family({ previousHashes: [sha256Hex(secret)], generation: 1 }), legacy)).toBe(true);
    expect(isEarlierToken(family({ previousHashes: [], generation: 1 }), legacy)).toBe(false);
  });
});
