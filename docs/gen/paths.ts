import { fileURLToPath } from "node:url";

/** The repository's root and the docs' source folder. */
export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const DOCS = fileURLToPath(new URL("../", import.meta.url));
