/**
 * A synthetic API for the manifests benchmark: N kinds, each with a spec four levels deep (lists,
 * maps, enums, validation, defaults, known types), written as a kbts TypeScript package and as the
 * equivalent Go package, so kbts and controller-gen do the same work.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const GROUP = "bench.kbts.test";

function tsKind(k: string): string {
  return `import type { Condition, int32, int64, LabelSelector, ObjectMeta, Quantity } from "@kbts/runtime";

// ${k}Port is the innermost level.
export interface ${k}Port {
  // name of the port.
  // +kubebuilder:validation:MaxLength=15
  name: string;
  // port number.
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=65535
  port: int32;
  // +kubebuilder:default=TCP
  // +optional
  protocol?: "TCP" | "UDP";
}

// ${k}Container is the third level.
export interface ${k}Container {
  // image to run.
  // +kubebuilder:validation:Pattern=\`^[a-z0-9./:-]+$\`
  image: string;
  // +listType=map
  // +listMapKey=name
  // +optional
  ports?: ${k}Port[];
  // +optional
  env?: Record<string, string>;
  // +optional
  memory?: Quantity;
}

// ${k}Template is the second level.
export interface ${k}Template {
  // +optional
  labels?: Record<string, string>;
  containers: ${k}Container[];
}

// ${k}Spec defines the desired state of ${k}.
// +kubebuilder:validation:XValidation:rule="self.replicas <= self.maxReplicas",message="replicas above maxReplicas"
export interface ${k}Spec {
  // replicas is the desired count.
  // +kubebuilder:default=1
  replicas: int32;
  // maxReplicas caps replicas.
  // +kubebuilder:validation:Minimum=1
  maxReplicas: int32;
  // +optional
  budget?: int64;
  // +optional
  selector?: LabelSelector;
  template: ${k}Template;
  // +kubebuilder:validation:Enum=Fast;Slow;Off
  // +optional
  mode?: string;
}

// ${k}Status defines the observed state of ${k}.
export interface ${k}Status {
  // +optional
  replicas?: int32;
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=".spec.replicas"
// ${k} is a benchmark kind.
export interface ${k} {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: ${k}Spec;
  // +optional
  status?: ${k}Status;
}
`;
}

function goKind(k: string): string {
  return `package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:validation:Enum=TCP;UDP
type ${k}PortProtocol string

// ${k}Port is the innermost level.
type ${k}Port struct {
	// name of the port.
	// +kubebuilder:validation:MaxLength=15
	Name string \`json:"name"\`
	// port number.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port int32 \`json:"port"\`
	// +kubebuilder:default=TCP
	// +optional
	Protocol ${k}PortProtocol \`json:"protocol,omitempty"\`
}

// ${k}Container is the third level.
type ${k}Container struct {
	// image to run.
	// +kubebuilder:validation:Pattern=\`^[a-z0-9./:-]+$\`
	Image string \`json:"image"\`
	// +listType=map
	// +listMapKey=name
	// +optional
	Ports []${k}Port \`json:"ports,omitempty"\`
	// +optional
	Env map[string]string \`json:"env,omitempty"\`
	// +optional
	Memory *resource.Quantity \`json:"memory,omitempty"\`
}

// ${k}Template is the second level.
type ${k}Template struct {
	// +optional
	Labels     map[string]string \`json:"labels,omitempty"\`
	Containers []${k}Container \`json:"containers"\`
}

// ${k}Spec defines the desired state of ${k}.
// +kubebuilder:validation:XValidation:rule="self.replicas <= self.maxReplicas",message="replicas above maxReplicas"
type ${k}Spec struct {
	// replicas is the desired count.
	// +kubebuilder:default=1
	Replicas int32 \`json:"replicas"\`
	// maxReplicas caps replicas.
	// +kubebuilder:validation:Minimum=1
	MaxReplicas int32 \`json:"maxReplicas"\`
	// +optional
	Budget int64 \`json:"budget,omitempty"\`
	// +optional
	Selector *metav1.LabelSelector \`json:"selector,omitempty"\`
	Template ${k}Template \`json:"template"\`
	// +kubebuilder:validation:Enum=Fast;Slow;Off
	// +optional
	Mode string \`json:"mode,omitempty"\`
}

// ${k}Status defines the observed state of ${k}.
type ${k}Status struct {
	// +optional
	Replicas int32 \`json:"replicas,omitempty"\`
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition \`json:"conditions,omitempty"\`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=".spec.replicas"

// ${k} is a benchmark kind.
type ${k} struct {
	metav1.TypeMeta   \`json:",inline"\`
	metav1.ObjectMeta \`json:"metadata,omitempty"\`
	Spec              ${k}Spec \`json:"spec"\`
	// +optional
	Status ${k}Status \`json:"status,omitempty"\`
}
`;
}

/** Writes the TS project into dir/ts and the Go module into dir/go; returns the kind names. */
export function writeSyntheticAPI(dir: string, kinds: number, goMod: string, goSum: string): string[] {
  const names = Array.from({ length: kinds }, (_, i) => `Kind${String(i + 1).padStart(2, "0")}`);
  const ts = join(dir, "ts", "api", "v1");
  const go = join(dir, "go", "api", "v1");
  mkdirSync(ts, { recursive: true });
  mkdirSync(go, { recursive: true });
  writeFileSync(
    join(ts, "groupversion_info.ts"),
    `// +kubebuilder:object:generate=true\n// +groupName=${GROUP}\nexport const GroupVersion = { group: "${GROUP}", version: "v1" } as const;\n`,
  );
  writeFileSync(
    join(go, "groupversion_info.go"),
    `// +kubebuilder:object:generate=true\n// +groupName=${GROUP}\npackage v1\n`,
  );
  for (const k of names) {
    writeFileSync(join(ts, `${k.toLowerCase()}_types.ts`), tsKind(k));
    writeFileSync(join(go, `${k.toLowerCase()}_types.go`), goKind(k));
  }
  writeFileSync(
    join(dir, "ts", "package.json"),
    `{ "name": "bench-api", "private": true, "type": "module" }\n`,
  );
  writeFileSync(join(dir, "go", "go.mod"), goMod.replace(/^module .*$/m, "module kbts.test/bench"));
  writeFileSync(join(dir, "go", "go.sum"), goSum);
  return names;
}
