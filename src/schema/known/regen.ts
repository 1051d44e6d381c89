/**
 * Regenerates k8s-types.json: the schemas controller-gen v0.23.0 writes for the Kubernetes types kbts
 * knows by name (imported from @kbts/runtime), taken from controller-gen's own output so they match
 * byte for byte. Needs Go (module proxy access). Run: npx tsx src/schema/known/regen.ts
 * The controller-gen binary is cached in ${XDG_CACHE_HOME:-~/.cache}/kbts/controller-gen/v0.23.0.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const CONTROLLER_GEN_VERSION = "v0.23.0";
// The Kubernetes release kbts targets (src/version.ts KUBERNETES_VERSION 1.36.3).
const K8S_VERSION = "v0.36.3";

/** TypeScript name (as exported by @kbts/runtime) → Go type. */
export const KNOWN_GO_TYPES: Record<string, string> = {
  LabelSelector: "metav1.LabelSelector",
  LabelSelectorRequirement: "metav1.LabelSelectorRequirement",
  Condition: "metav1.Condition",
  OwnerReference: "metav1.OwnerReference",
  ManagedFieldsEntry: "metav1.ManagedFieldsEntry",
  ObjectReference: "corev1.ObjectReference",
  LocalObjectReference: "corev1.LocalObjectReference",
  TypedLocalObjectReference: "corev1.TypedLocalObjectReference",
  ResourceRequirements: "corev1.ResourceRequirements",
  EnvVar: "corev1.EnvVar",
  EnvFromSource: "corev1.EnvFromSource",
  Toleration: "corev1.Toleration",
  PodTemplateSpec: "corev1.PodTemplateSpec",
  PodSpec: "corev1.PodSpec",
  Container: "corev1.Container",
  ContainerPort: "corev1.ContainerPort",
  Volume: "corev1.Volume",
  VolumeMount: "corev1.VolumeMount",
  SecurityContext: "corev1.SecurityContext",
  PodSecurityContext: "corev1.PodSecurityContext",
  Affinity: "corev1.Affinity",
  SecretKeySelector: "corev1.SecretKeySelector",
  ConfigMapKeySelector: "corev1.ConfigMapKeySelector",
  Probe: "corev1.Probe",
  ServicePort: "corev1.ServicePort",
  ResourceList: "corev1.ResourceList",
};

function controllerGen(): string {
  const cache = join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"),
    "kbts/controller-gen",
    CONTROLLER_GEN_VERSION,
  );
  const bin = join(cache, "controller-gen");
  if (!existsSync(bin)) {
    mkdirSync(cache, { recursive: true });
    execFileSync(
      "go",
      ["install", `sigs.k8s.io/controller-tools/cmd/controller-gen@${CONTROLLER_GEN_VERSION}`],
      {
        env: { ...process.env, GOBIN: cache },
        stdio: "inherit",
      },
    );
  }
  return bin;
}

function main(): void {
  const work = mkdtempSync(join(tmpdir(), "kbts-known-"));
  try {
    const pkg = join(work, "v1");
    mkdirSync(pkg);
    writeFileSync(
      join(work, "go.mod"),
      `module kbts.dev/known\n\ngo 1.22\n\nrequire (\n\tk8s.io/api ${K8S_VERSION}\n\tk8s.io/apimachinery ${K8S_VERSION}\n)\n`,
    );
    const fields = Object.entries(KNOWN_GO_TYPES)
      .map(([name, goType]) => `\t${name} ${goType} \`json:"${name}"\``)
      .join("\n");
    writeFileSync(
      join(pkg, "types.go"),
      `// +groupName=known.kbts.dev
package v1

import (
\tcorev1 "k8s.io/api/core/v1"
\tmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type KnownSpec struct {
${fields}
}

// +kubebuilder:object:root=true
type Known struct {
\tmetav1.TypeMeta   \`json:",inline"\`
\tmetav1.ObjectMeta \`json:"metadata,omitempty"\`
\tSpec KnownSpec \`json:"spec"\`
}
`,
    );
    execFileSync("go", ["mod", "tidy"], { cwd: work, stdio: "inherit" });
    execFileSync(controllerGen(), ["crd", "paths=./...", "output:crd:dir=out"], {
      cwd: work,
      stdio: "inherit",
    });
    const file = readdirSync(join(work, "out"))[0] as string;
    const crd = parse(readFileSync(join(work, "out", file), "utf8")) as {
      spec: {
        versions: {
          schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } };
        }[];
      };
    };
    const props = crd.spec.versions[0]?.schema.openAPIV3Schema.properties.spec.properties ?? {};
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(KNOWN_GO_TYPES).sort()) out[name] = props[name];
    const target = join(dirname(fileURLToPath(import.meta.url)), "k8s-types.json");
    writeFileSync(target, `${JSON.stringify(out, null, 1)}\n`);
    console.log(`wrote ${target} (${Object.keys(out).length} types)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
