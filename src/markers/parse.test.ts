import { describe, expect, it } from "vitest";
import { KbtsError } from "../errors.js";
import { registry } from "../manifests/generators.js";
import { parseArgs, t } from "./args.js";
import { parseMarker } from "./parse.js";

const loc = { file: "api/v1/types.ts", line: 5, col: 6 };
const parse = (text: string, target: "field" | "type" | "package" = "field") =>
  parseMarker(registry, target, text, loc);
const value = (text: string, target: "field" | "type" | "package" = "field") => {
  const r = parse(text, target);
  if (r.kind !== "marker") throw new Error(`not a marker: ${JSON.stringify(r)}`);
  return r.marker.value;
};

describe("marker arguments (controller-tools syntax)", () => {
  it("reads anonymous values by their declared type", () => {
    expect(value("+kubebuilder:validation:MaxLength=64")).toBe(64);
    expect(value("+kubebuilder:validation:Minimum=-1.5")).toBe(-1.5);
    expect(value("+kubebuilder:validation:Pattern=`^[a-z]+(,[a-z]+)*$`")).toBe("^[a-z]+(,[a-z]+)*$");
    expect(value("+kubebuilder:validation:Pattern=^[a-z]+$")).toBe("^[a-z]+$");
    expect(value("+kubebuilder:object:root=true", "type")).toBe(true);
  });

  it("guesses untyped values like controller-tools (Enum, default, example)", () => {
    expect(value("+kubebuilder:validation:Enum=A;B;C")).toEqual(["A", "B", "C"]);
    expect(value("+kubebuilder:validation:Enum=1;2")).toEqual([1, 2]);
    expect(value('+kubebuilder:validation:Enum="1";"2"')).toEqual(["1", "2"]);
    expect(value("+kubebuilder:default=forty-two")).toBe("forty-two");
    expect(value("+kubebuilder:default=100Mi")).toBe("100Mi");
    expect(value("+kubebuilder:default={a,b}")).toEqual(["a", "b"]);
    expect(value("+kubebuilder:default={}")).toEqual({});
    expect(value("+kubebuilder:default={name: x, port: 80}")).toEqual({ name: "x", port: 80 });
    expect(value("+kubebuilder:default=true")).toBe(true);
    expect(value('+default={"a": [1, 2]}')).toEqual({ a: [1, 2] });
  });

  it("reads named fields, lists with ; or {}, and quoted strings", () => {
    expect(
      value(
        '+kubebuilder:printcolumn:name="Max GPUs",type=integer,JSONPath=".spec.maxGPUs",priority=1',
        "type",
      ),
    ).toEqual({ name: "Max GPUs", type: "integer", JSONPath: ".spec.maxGPUs", priority: 1 });
    expect(
      value('+kubebuilder:rbac:groups=apps;"",resources={deployments,pods},verbs=get;list', "package"),
    ).toEqual({
      groups: ["apps", ""],
      resources: ["deployments", "pods"],
      verbs: ["get", "list"],
    });
    expect(
      value('+kubebuilder:validation:XValidation:rule="self.a <= self.b",message="a, then b"', "type"),
    ).toEqual({
      rule: "self.a <= self.b",
      message: "a, then b",
    });
  });

  it("accepts the k8s: aliases", () => {
    expect(value("+k8s:listType=map")).toBe("map");
    expect(value("+k8s:optional")).toBeUndefined();
  });

  it("stops on a malformed marker at its location, saying what was expected", () => {
    let err: unknown;
    try {
      parse("+kubebuilder:validation:MaxLength=ten");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(KbtsError);
    const text = (err as KbtsError).format();
    expect(text).toContain("api/v1/types.ts:5:6");
    expect(text).toContain("expected an integer");
    expect(text).toContain('"ten"');
    expect(text).toContain("+kubebuilder:validation:MaxLength=<an integer>");
  });

  it("rejects unknown, missing and extra arguments", () => {
    expect(() => parse("+kubebuilder:printcolumn:name=a,type=string", "type")).toThrow(
      /missing argument "JSONPath"/,
    );
    expect(() => parse("+kubebuilder:resource:plural=x", "type")).toThrow(/unknown argument "plural"/);
    expect(() => parse("+kubebuilder:validation:MaxLength=1 2")).toThrow(/extra arguments/);
    expect(() => parse("+kubebuilder:validation:MaxLength")).toThrow(/expected an integer/);
  });

  it("warns about unknown markers with the closest known name", () => {
    const r = parse("+kubebuilder:validation:MaxLenght=5");
    expect(r.kind).toBe("warning");
    if (r.kind === "warning") {
      expect(r.warning.message).toContain("unknown marker +kubebuilder:validation:MaxLenght");
      expect(r.warning.message).toContain("did you mean +kubebuilder:validation:MaxLength?");
      expect(r.warning.where).toBe("api/v1/types.ts:5:6");
    }
  });

  it("suggests the marker named like the unknown one's last segment before the nearest by spelling", () => {
    const hint = (text: string) => {
      const r = parse(text);
      return r.kind === "warning" ? r.warning.message : "";
    };
    // Edit distance alone suggested +kubebuilder:validation:MultipleOf (same prefix, same length).
    expect(hint("+kubebuilder:validation:nullable")).toContain("(did you mean +nullable?)");
    expect(hint("+kubebuilder:validation:optional")).toContain(
      "(did you mean +kubebuilder:validation:Optional?)",
    );
    expect(hint("+kubebuilder:validation:listType=map")).toContain("(did you mean +listType?)");
  });

  it("says when a marker is used on the wrong target", () => {
    const r = parse("+kubebuilder:subresource:status", "field");
    expect(r.kind).toBe("warning");
    if (r.kind === "warning") expect(r.warning.message).toContain("does not apply to a field");
  });

  it("ignores other generators' markers", () => {
    expect(parse("+kubebuilder:object:generate=true", "package").kind).toBe("ignored");
    // A prefix alone, followed by ":" (at any depth) or by "=", is ignored; a longer name is not.
    for (const m of ["+genclient", "+genclient:nonNamespaced", "+k8s:deepcopy-gen:interfaces", "+enum"])
      expect(parse(m, "type").kind, m).toBe("ignored");
    for (const m of ["+genclientx", "+enumerated", "+k8s:deepcopy", "+kubebuilder:object"])
      expect(parse(m, "type").kind, m).not.toBe("ignored");
  });

  it("parses a shape directly", () => {
    expect(parseArgs({ kind: "value", type: t.strings }, "a;b;c")).toEqual(["a", "b", "c"]);
  });
});
