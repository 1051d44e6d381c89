import type { int32, ObjectMeta } from "@kbts/runtime";

// Leaf is the innermost level.
export interface Leaf {
  // value is required at the bottom.
  value: string;
}

// Branch holds leaves.
export interface Branch {
  // leaves are required.
  leaves: Leaf[];
  // +optional
  weight?: int32;
}

// Trunk holds branches.
export interface Trunk {
  // +optional
  branches?: Branch[];
  // main is the main branch.
  main: Branch;
}

export interface TreeSpec {
  // trunk is three levels deep.
  trunk: Trunk;
}

// +kubebuilder:object:root=true
// Tree is a test kind.
export interface Tree {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: TreeSpec;
}
