import { ts } from "ts-morph";
import { describe, expect, it } from "vitest";
import { registry } from "../registry.js";
import { MarkerCollector } from "./collect.js";

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
function reconcile() {}
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

  it("treats every other comment as package-level (groupName, rbac above a function)", () => {
    const { sf, collector } = collect();
    expect(collector.packageMarkers(sf).map((m) => m.def.name)).toEqual(["groupName", "kubebuilder:rbac"]);
  });
});
