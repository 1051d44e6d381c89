import type { int32, ObjectMeta } from "@kbts/runtime";

/**
 * LockerSpec is documented and marked in JSDoc.
 * +kubebuilder:validation:MinProperties=1
 */
export interface LockerSpec {
  /**
   * code opens the locker.
   * +kubebuilder:validation:Pattern=`^[0-9]{4}$`
   * +optional
   */
  code?: string;
  /** slots counts the shelves. */
  // +kubebuilder:validation:Maximum=12
  // +optional
  slots?: int32;
}

/**
 * +kubebuilder:object:root=true
 * +kubebuilder:resource:shortName=lk
 * Locker is a test kind whose markers live in a JSDoc block.
 */
export interface Locker {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  /**
   * spec is optional.
   * +optional
   */
  spec?: LockerSpec;
}
