import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatNumber, toYaml, toYamlDocuments } from "./emit.js";
import { compareYamlKeys } from "./keys.js";
import { scalarStyle } from "./scalar.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");

describe("yaml writer", () => {
  // cases.yaml.golden is gopkg.in/yaml.v2's output (through sigs.k8s.io/yaml, as controller-gen)
  // for cases.json: quoting, folding at column 80, literal blocks, key order, numbers.
  it("writes what yaml.v2 writes for the tricky cases", () => {
    const input = JSON.parse(fixture("cases.json"));
    expect(toYaml(input)).toBe(fixture("cases.yaml.golden"));
  });

  // yaml.v2's output (sigs.k8s.io/yaml v1.6.0's JSONToYAML, as controller-gen) for characters beyond
  // the BMP: libyaml does not count them printable, so it double-quotes them as \U escapes, and
  // folds the quoted text by the escapes' width.
  it("double-quotes characters beyond the BMP as yaml.v2 does", () => {
    const face = "\u{1F600}";
    const input = {
      [`k${face}y`]: `${`${face} `.repeat(45)}end`,
      b: `a lone ${face} surrogate and 'quote' ${"x ".repeat(40)}`,
      c: `line ${face}\nnext`,
    };
    const u = "\\U0001F600";
    expect(toYaml(input)).toBe(
      [
        `b: "a lone ${u} surrogate and 'quote' x x x x x x x x x x x x x x x x x x x`,
        `  x x x x x x x x x x x x x x x x x x x x x "`,
        `c: "line ${u}\\nnext"`,
        `"k${u}y": "${u} ${u} ${u} ${u} ${u} ${u}`,
        ...Array.from({ length: 4 }, () => `  ${Array(8).fill(u).join(" ")}`),
        `  ${Array(7).fill(u).join(" ")} end"`,
        "",
      ].join("\n"),
    );
  });

  it("quotes strings that would read back as another type", () => {
    expect(scalarStyle("True", false)).toBe("double");
    expect(scalarStyle("124", false)).toBe("double");
    expect(scalarStyle("", false)).toBe("double");
    expect(scalarStyle("*", false)).toBe("single");
    expect(scalarStyle("a: b", false)).toBe("single");
    expect(scalarStyle("Unknown", false)).toBe("plain");
    expect(scalarStyle("a\nb", false)).toBe("literal");
  });

  it("orders keys like yaml.v2 (non-letters first, digits numerically)", () => {
    const keys = [
      "x-kubernetes-list-type",
      "x-kubernetes-list-map-keys",
      "description",
      "JSONPath",
      "a10",
      "a2",
    ];
    expect([...keys].sort(compareYamlKeys)).toEqual([
      "JSONPath",
      "a2",
      "a10",
      "description",
      "x-kubernetes-list-map-keys",
      "x-kubernetes-list-type",
    ]);
  });

  it("formats floats as Go's strconv 'g'", () => {
    expect(formatNumber(1.5)).toBe("1.5");
    expect(formatNumber(1234567.5)).toBe("1.2345675e+06");
    expect(formatNumber(0.00001)).toBe("1e-05");
    expect(formatNumber(42)).toBe("42");
  });

  it("starts every document with ---", () => {
    expect(toYamlDocuments([{ a: 1 }, { b: [] }])).toBe("---\na: 1\n---\nb: []\n");
  });
});
