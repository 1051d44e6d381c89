import { KbtsError } from "../errors.js";

/**
 * Names a resource is known by, and the checks Kubebuilder applies to them
 * (KB pkg/model/resource/gvk.go), done before anything is written; and the free-text flags whose
 * grammar is loose (an owner's name, a module path, an npm version spec), checked for where they land.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const VERSION = /^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/;
const PASCAL = /^[A-Z][A-Za-z0-9]*$/;

export function isDNS1123Subdomain(value: string): boolean {
  return value.length > 0 && value.length <= 253 && value.split(".").every((l) => DNS1123_LABEL.test(l));
}

export function isDNS1123Label(value: string): boolean {
  return value.length <= 63 && DNS1123_LABEL.test(value);
}

export function validateDomain(domain: string, flag = "--domain"): void {
  if (!isDNS1123Subdomain(domain)) {
    throw new KbtsError(`domain ${JSON.stringify(domain)} is not a DNS-1123 subdomain`, {
      where: flag,
      fix: "use lower-case letters, digits, '-' and '.', e.g. --domain example.com",
    });
  }
}

export function validateProjectName(name: string): void {
  if (!isDNS1123Label(name)) {
    throw new KbtsError(`project name ${JSON.stringify(name)} is invalid: it must be a DNS-1123 label`, {
      where: "--project-name",
      fix: "use lower-case letters, digits and '-', starting and ending with a letter or digit, e.g. --project-name memcached-operator",
    });
  }
}

export function validateGroup(group: string): void {
  if (!isDNS1123Subdomain(group)) {
    throw new KbtsError(`group ${JSON.stringify(group)} is not a DNS-1123 subdomain`, {
      where: "--group",
      fix: "use lower-case letters, digits, '-' and '.', e.g. --group cache",
    });
  }
}

export function validateVersion(version: string, flag = "--version"): void {
  if (!VERSION.test(version)) {
    throw new KbtsError(`version ${JSON.stringify(version)} is not a Kubernetes API version`, {
      where: flag,
      fix: `use v<N>, v<N>alpha<M> or v<N>beta<M>, e.g. ${flag} v1alpha1`,
    });
  }
}

export function validateKind(kind: string): void {
  if (!PASCAL.test(kind) || !DNS1035_LABEL.test(kind.toLowerCase()) || kind.length > 63) {
    throw new KbtsError(
      `kind ${JSON.stringify(kind)} must be PascalCase (an upper-case letter, then letters and digits)`,
      {
        where: "--kind",
        fix: "e.g. --kind Memcached or --kind GPUBudget",
      },
    );
  }
}

export function validatePlural(plural: string): void {
  if (!DNS1035_LABEL.test(plural) || plural.length > 63) {
    throw new KbtsError(`plural ${JSON.stringify(plural)} must be a lower-case DNS-1035 label`, {
      where: "--plural",
      fix: "e.g. --plural memcacheds",
    });
  }
}

/** Groups of the core API whose qualified name has no domain (KB pkg/plugins/golang/options.go). */
const CORE_GROUPS_NO_DOMAIN = new Set(["core", "apps", "autoscaling", "batch", "extensions", "policy"]);
const CORE_GROUPS = new Set([
  ...CORE_GROUPS_NO_DOMAIN,
  "admission",
  "admissionregistration",
  "apiextensions",
  "authentication",
  "authorization",
  "certificates",
  "coordination",
  "discovery",
  "events",
  "networking",
  "node",
  "rbac.authorization",
  "scheduling",
  "storage",
]);

export function isCoreGroup(group: string): boolean {
  return CORE_GROUPS.has(group);
}

/** The domain stored for a core resource: "" for core/apps/batch/..., "k8s.io" for the others. */
export function coreDomain(group: string): string {
  return CORE_GROUPS_NO_DOMAIN.has(group) ? "" : "k8s.io";
}

/** "cache.example.com"; "" for the core group; the group alone when the domain is empty. */
export function qualifiedGroup(group: string, domain: string): string {
  if (group === "core") return "";
  if (!domain) return group;
  return `${group}.${domain}`;
}

/** 32-bit FNV-1a as 8 hex digits: a stable leader-election ID prefix, as Kubebuilder's hashFNV. */
export function fnv32a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * A new resource's names as the API server checks them: the plural is a DNS-1035 label (at most 63
 * characters, which a long kind's plural can pass), the qualified group a DNS-1123 subdomain, the
 * CRD's name `<plural>.<group>` a DNS-1123 subdomain (at most 253), and the CRD's file name fits.
 */
export function checkResourceNames(model: {
  kind: string;
  plural: string;
  qualifiedGroup: string;
  core: boolean;
}): void {
  if (!isDNS1123Label(model.plural) || model.plural.length > 63) {
    throw new KbtsError(
      `the plural of kind ${model.kind}, ${JSON.stringify(model.plural)}, is ${model.plural.length} characters; the API server allows at most 63`,
      {
        where: model.plural.length > 63 ? "--kind" : "--plural",
        fix: "choose a shorter kind, or give a shorter --plural",
      },
    );
  }
  if (!model.core && !isDNS1123Subdomain(model.qualifiedGroup)) {
    throw new KbtsError(
      `the API group ${JSON.stringify(model.qualifiedGroup)} (--group + the project's domain) is not a DNS-1123 subdomain of at most 253 characters`,
      { where: "--group", fix: "choose a shorter group (or a shorter domain)" },
    );
  }
  const crdName = `${model.plural}.${model.qualifiedGroup}`;
  if (!model.core && crdName.length > 253) {
    throw new KbtsError(
      `the CRD name ${crdName.slice(0, 40)}... is ${crdName.length} characters; the API server allows at most 253`,
      { where: "--group", fix: "choose a shorter group, kind or plural (or a shorter domain)" },
    );
  }
  const file = `${model.qualifiedGroup}_${model.plural}.yaml`;
  if (!model.core && Buffer.byteLength(file) > 255) {
    throw new KbtsError(`the CRD file name ${file.slice(0, 40)}... is longer than 255 bytes`, {
      where: "--group",
      fix: "choose a shorter group, kind or plural (or a shorter domain)",
    });
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function describeChar(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** A one-line value: no newlines or other control characters, and not longer than `max`. */
function checkOneLine(value: string, flag: string, max: number, example: string): void {
  const bad = CONTROL.exec(value);
  if (bad) {
    throw new KbtsError(
      `${flag} contains a control character (${describeChar(bad[0])} at offset ${bad.index})`,
      {
        where: flag,
        fix: `give one line of plain text, e.g. ${flag} ${example}`,
      },
    );
  }
  if (value.length > max) {
    throw new KbtsError(`${flag} is ${value.length} characters long; at most ${max} are allowed`, {
      where: flag,
      fix: `shorten it, e.g. ${flag} ${example}`,
    });
  }
}

/** `--owner`: the name on the copyright line. Any printable text of one line. */
export function validateOwner(owner: string): void {
  checkOneLine(owner, "--owner", 200, '"The Example Authors"');
  if (owner.trim() === "") {
    throw new KbtsError("--owner is empty", {
      where: "--owner",
      fix: 'leave it out, or name the copyright holder, e.g. --owner "The Example Authors"',
    });
  }
}

/**
 * `--repo`: the project's module path, as Kubebuilder's `--repo` (a Go import path): slash-separated
 * elements of letters, digits and `-._~`, no empty element, none starting with a dot.
 */
const REPO_ELEMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;
export function validateRepo(repo: string): void {
  checkOneLine(repo, "--repo", 253, "example.com/memcached-operator");
  const elements = repo.split("/");
  const bad = elements.find((e) => !REPO_ELEMENT.test(e));
  if (repo === "" || bad !== undefined) {
    throw new KbtsError(
      `--repo ${JSON.stringify(repo)} is not a module path${bad === undefined ? "" : ` (element ${JSON.stringify(bad)})`}`,
      {
        where: "--repo",
        fix: "use slash-separated names of letters, digits, '-', '.', '_' and '~', e.g. --repo example.com/memcached-operator",
      },
    );
  }
}

/**
 * An npm version, range or dist-tag (`1.2.3`, `^0.1.0`, `>=1.0.0 <2`, `1.x || 2.x`, `latest`), as
 * `--runtime` takes for a registry install. Only the characters of that grammar are allowed, so the
 * value cannot carry quotes, URLs or shell syntax into package.json.
 */
const VERSION_PART =
  /^(?:[~^]|[<>]=?|=)?v?(?:0|[1-9]\d*|[xX*])(?:\.(?:0|[1-9]\d*|[xX*])){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const DIST_TAG = /^[a-z][a-z0-9._-]{0,63}$/i;
export function isNpmVersionSpec(spec: string): boolean {
  if (DIST_TAG.test(spec) && !/^v?\d/.test(spec)) return true;
  return spec.split("||").every((alt) => {
    const parts = alt
      .trim()
      .replace(/\s+-\s+/g, " ")
      .split(/\s+/);
    return parts.length > 0 && parts.every((p) => VERSION_PART.test(p));
  });
}
