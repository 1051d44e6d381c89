// Corner is a point, written as a type literal rather than an interface.
export type Corner = {
  x: string;
  // +optional
  y?: string;
};
