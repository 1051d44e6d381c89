import { ts } from "ts-morph";
import { describe, expect, it } from "vitest";
import { registry } from "../manifests/generators.js";
import { MarkerCollector } from "./collect.js";
import { markerHelp } from "./help.js";
import { usage } from "./parse.js";

const source = `// Copyright header, not a description.

// +groupName=example.com

// +kubebuilder:object:root=true

// Thing is documented here.
// TODO: not in the description
// +kubebuilder:subresource:status
export interface Thing {
  // name is the name.
  //
  // It has a second paragraph.
  // ---
  // Everything after the dashes is dropped.
  // +kubebuilder:validation:MaxLength=10
  name: string;
  /**
   * size in bytes.
   * +kubebuilder:validation:Minimum=0
   */
  size: number;
}

// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get

// reconcile's doc comment: its markers are ignored, as controller-gen ignores a func's godoc.
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get
function reconcile() {}

// +kubebuilder:rbac:groups=policy,resources=poddisruptionbudgets,verbs=get
// +kubebuilder:validation:Optional

// Other is documented.
// +kubebuilder:object:root=true
export interface Other {
  name: string;
}
`;

function collect() {
  const sf = ts.createSourceFile("/p/api/v1/types.ts", source, ts.ScriptTarget.ES2022, true);
  const collector = new MarkerCollector(registry, "/p");
  const iface = sf.statements.find(ts.isInterfaceDeclaration) as ts.InterfaceDeclaration;
  return { sf, collector, iface };
}

describe("marker association (controller-tools' rules, in TypeScript comments)", () => {
  it("gives a declaration its doc group and the group before it", () => {
    const { collector, iface } = collect();
    const docs = collector.forNode(iface);
    expect(docs.doc).toBe("Thing is documented here.");
    expect(docs.markers.all.map((m) => m.def.name)).toEqual([
      "kubebuilder:object:root",
      "kubebuilder:subresource:status",
    ]);
  });

  it("cleans property descriptions and reads markers from // and /** */ comments", () => {
    const { collector, iface } = collect();
    const [name, size] = iface.members;
    const n = collector.forNode(name as ts.Node);
    expect(n.doc).toBe("name is the name.\n\nIt has a second paragraph.");
    expect(n.markers.all.map((m) => [m.def.name, m.value, `${m.loc.line}:${m.loc.col}`])).toEqual([
      ["kubebuilder:validation:MaxLength", 10, "16:6"],
    ]);
    const s = collector.forNode(size as ts.Node);
    expect(s.doc).toBe("size in bytes.");
    expect(s.markers.all.map((m) => [m.def.name, m.value])).toEqual([["kubebuilder:validation:Minimum", 0]]);
  });

  it("treats every other comment as package-level (groupName, rbac apart from a function), and package-level markers of a type's marker block", () => {
    const { sf, collector } = collect();
    expect(collector.packageMarkers(sf).map((m) => `${m.def.name}:${m.loc.line}`)).toEqual([
      "groupName:3",
      "kubebuilder:rbac:25",
      "kubebuilder:rbac:31",
      "kubebuilder:validation:Optional:32",
    ]);
    const other = sf.statements.filter(ts.isInterfaceDeclaration)[1] as ts.InterfaceDeclaration;
    expect(collector.forNode(other).markers.all.map((m) => m.def.name)).toEqual(["kubebuilder:object:root"]);
  });

  it("ignores, and warns about, package-level markers in a function's doc comment", () => {
    const { sf, collector } = collect();
    collector.packageMarkers(sf);
    const messages = collector.warnings.map((w) => `${w.where} ${w.message}`);
    expect(
      messages.some((m) =>
        /^api\/v1\/types\.ts:28:4 \+kubebuilder:rbac in the doc comment of function reconcile is ignored/.test(
          m,
        ),
      ),
      messages.join("\n"),
    ).toBe(true);
    expect(
      messages.some((m) =>
        /types\.ts:32:4 \+kubebuilder:validation:Optional stands in the marker block above interface Other/.test(
          m,
        ),
      ),
      messages.join("\n"),
    ).toBe(true);
  });
});

/**
 * The markers controller-gen applies once per instance, each adding to the result (pkg/crd/markers:
 * ListMapKey and XValidation append, the OneOf markers each make a rule, PrintColumn and
 * SelectableField append, Metadata merges; pkg/rbac and pkg/webhook range over every value).
 */
const CONTROLLER_GEN_REPEATABLE = [
  "k8s:listMapKey",
  "kubebuilder:metadata",
  "kubebuilder:printcolumn",
  "kubebuilder:rbac",
  "kubebuilder:selectablefield",
  "kubebuilder:validation:AtLeastOneOf",
  "kubebuilder:validation:AtMostOneOf",
  "kubebuilder:validation:ExactlyOneOf",
  "kubebuilder:validation:XValidation",
  "kubebuilder:validation:items:XValidation",
  "kubebuilder:webhook",
  "kubebuilder:webhookconfiguration",
  "listMapKey",
];

/** kbts' own markers that accumulate: each +kbts:guard adds a guarded resource or allowed fields. */
const KBTS_REPEATABLE = ["kbts:guard"];

/** Two different, valid instances of a marker, for a node of its target. */
const TWICE: Record<string, [string, string]> = {
  "k8s:listMapKey": ["name", "port"],
  listMapKey: ["name", "port"],
  "kubebuilder:validation:AtLeastOneOf": ["a;b", "c;d"],
  "kubebuilder:validation:AtMostOneOf": ["a;b", "c;d"],
  "kubebuilder:validation:ExactlyOneOf": ["a;b", "c;d"],
};

function collectTwice(name: string, target: "type" | "field", a: string, b: string) {
  const line = (v: string) => (v.startsWith(":") ? `// +${name}${v}` : `// +${name}=${v}`);
  const text =
    target === "type"
      ? `${line(a)}\n${line(b)}\nexport interface T {\n  x: string;\n}\n`
      : `export interface T {\n  ${line(a)}\n  ${line(b)}\n  x: string;\n}\n`;
  const sf = ts.createSourceFile("/p/api/v1/types.ts", text, ts.ScriptTarget.ES2022, true);
  const collector = new MarkerCollector(registry, "/p");
  const iface = sf.statements.find(ts.isInterfaceDeclaration) as ts.InterfaceDeclaration;
  const docs = collector.forNode(target === "type" ? iface : (iface.members[0] as ts.Node));
  return { collector, docs };
}

describe("repeatable markers: one definition, read by --list-markers and the collector", () => {
  it("marks exactly controller-gen's accumulating markers repeatable", () => {
    const repeatable = registry
      .definitions()
      .filter((d) => d.repeatable)
      .map((d) => d.name)
      .sort();
    expect(repeatable).toEqual([...CONTROLLER_GEN_REPEATABLE, ...KBTS_REPEATABLE].sort());
  });

  it("--list-markers says (repeatable) for those and no other", () => {
    const help = markerHelp(registry);
    for (const d of registry.definitions()) {
      const entry = `${usage(d.name, d.args)}\n    ${d.help}`;
      expect(help, d.name).toContain(entry);
      const said = help.split(entry)[1]?.startsWith(" (repeatable)") ?? false;
      expect(said, d.name).toBe(d.repeatable === true);
    }
  });

  it("collects every instance of a repeatable node marker given twice", () => {
    for (const [name, [a, b]] of Object.entries(TWICE)) {
      const target = name.includes("OneOf") ? "type" : "field";
      const { collector, docs } = collectTwice(name, target, a, b);
      expect(
        collector.errors.map((e) => e.message),
        name,
      ).toEqual([]);
      expect(
        docs.markers.all.map((m) => m.value),
        name,
      ).toHaveLength(2);
    }
    const rules = collectTwice(
      "kubebuilder:validation:XValidation",
      "field",
      ':rule="self.size() > 1"',
      ':rule="self.size() < 9"',
    );
    expect(rules.collector.errors).toEqual([]);
  });

  it("refuses any other marker given twice on one node with different values, naming both lines", () => {
    const bound = collectTwice("kubebuilder:validation:MaxLength", "field", "3", "5");
    expect(bound.collector.errors.map((e) => e.format()).join("\n")).toMatch(
      /types\.ts:3:6: \+kubebuilder:validation:MaxLength is given twice with different values: .*\(line 2\) and .*\(line 3\)/,
    );
    const scope = collectTwice("kubebuilder:resource", "type", ":scope=Cluster", ":scope=Namespaced");
    expect(scope.collector.errors.map((e) => e.message).join("\n")).toContain(
      "+kubebuilder:resource is given twice with different values",
    );
  });
});
