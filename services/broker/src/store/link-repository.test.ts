import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { IamError } from "../../../kit/src/errors.js";
import { LinkRepository } from "./link-repository.js";

describe("LinkRepository", () => {
  let store: SqliteStore;
  let links: LinkRepository;
  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:" });
    links = await LinkRepository.open(store);
  });
  afterEach(() => store.close());

  const link = (id: string, userId: string, subject: string, providerId = "p1") => ({
    _id: id, realmId: "r1", userId, alias: "up", providerId, subject, username: id, createdAt: 1,
  });

  it("keeps one user per upstream account and one upstream account per user and provider", async () => {
    await links.insert(link("a", "u1", "s1"));
    await expect(links.insert(link("b", "u2", "s1"))).rejects.toMatchObject({ code: "alreadyExists" });
    await expect(links.insert(link("c", "u1", "s2"))).rejects.toBeInstanceOf(IamError);
    expect(await links.findBySubject("r1", "up", "s1")).toMatchObject({ userId: "u1" });
  });

  it("drops the links an earlier provider of the same alias left, and only those", async () => {
    await links.insert(link("old", "u1", "s1", "p-old"));
    await links.insert(link("cur", "u2", "s2", "p-new"));
    expect(await links.deleteStale("r1", "up", "p-new")).toBe(1);
    expect(await links.findBySubject("r1", "up", "s1")).toBeNull();
    expect(await links.findBySubject("r1", "up", "s2")).toMatchObject({ providerId: "p-new" });
  });
});
