import { describe, expect, it } from "vitest";
import { blockCommentLines, cleanDescription, lineCommentText } from "./doc.js";

describe("descriptions (controller-gen extractDoc)", () => {
  it("strips // and one space, keeps further indentation", () => {
    expect(lineCommentText("// text")).toBe("text");
    expect(lineCommentText("//text")).toBe("text");
    expect(lineCommentText("//   indented")).toBe("  indented");
  });

  it("drops TODO lines and cuts at ---", () => {
    expect(cleanDescription(["first", "TODO: later", "second", "---", "hidden"])).toBe("first\nsecond");
    expect(cleanDescription(["  TODO stays (indented)"])).toBe("  TODO stays (indented)");
  });

  it("keeps fenced code blocks as they are", () => {
    expect(cleanDescription(["```", "TODO kept", "---", "```", "after"])).toBe(
      "```\nTODO kept\n---\n```\nafter",
    );
  });

  it("collapses blank-line runs, removes outer blank lines and trailing spaces", () => {
    expect(cleanDescription(["", "a  ", "", "", "b", ""])).toBe("a\n\nb");
  });

  it("reads /** */ blocks line by line", () => {
    expect(blockCommentLines("/**\n * Hello\n *   world\n */")).toEqual(["Hello", "world"]);
  });
});

describe("tool directives", () => {
  it("are not description lines", async () => {
    const { isDirectiveLine } = await import("./doc.js");
    expect(isDirectiveLine("@ts-expect-error the reason")).toBe(true);
    expect(isDirectiveLine("eslint-disable-next-line no-console")).toBe(true);
    expect(isDirectiveLine("biome-ignore lint/x: y")).toBe(true);
    expect(isDirectiveLine("prettier-ignore")).toBe(true);
    expect(isDirectiveLine("size is how big the stamp is.")).toBe(false);
    expect(isDirectiveLine("global window, fetch:readonly")).toBe(true);
    expect(isDirectiveLine("global defines the global parameters of the Alertmanager configuration.")).toBe(
      false,
    );
  });
});
