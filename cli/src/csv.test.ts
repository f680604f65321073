import { parseCsv } from "../../sdk/typescript/src/csv.js";

describe("parseCsv", () => {
  it("names cells by the header, leaves empty cells out and keeps each row's line", () => {
    expect(parseCsv("username,email,enabled\nana,ana@example.test,true\nbo,,false\n")).toEqual([
      { line: 2, cells: { username: "ana", email: "ana@example.test", enabled: "true" } },
      { line: 3, cells: { username: "bo", enabled: "false" } },
    ]);
  });

  it("reads quoted fields with commas, doubled quotes and line breaks, over CRLF", () => {
    const text = 'username,lastName\r\n"ana","Smith, ""Jr""\r\nthe second"\r\nbo,Lee\r\n';
    expect(parseCsv(text)).toEqual([
      { line: 2, cells: { username: "ana", lastName: 'Smith, "Jr"\r\nthe second' } },
      { line: 4, cells: { username: "bo", lastName: "Lee" } },
    ]);
  });

  it("skips blank lines without losing count of the lines, and reads a last row without a newline", () => {
    expect(parseCsv("username\n\nana\n\n\nbo")).toEqual([
      { line: 3, cells: { username: "ana" } },
      { line: 6, cells: { username: "bo" } },
    ]);
  });

  it("answers no rows for an empty file or a header alone", () => {
    expect(parseCsv("")).toEqual([]);
    expect(parseCsv("username,email\n")).toEqual([]);
  });
});
