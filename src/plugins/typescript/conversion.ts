import { isDeepStrictEqual } from "node:util";
import { isMap, isSeq, type YAMLMap } from "yaml";
import { KbtsError } from "../../errors.js";
import { upsertResource } from "../../project/config.js";
import { type ResourceModel, resourceEntry } from "../../project/resource.js";
import { hasFragment, uncomment } from "../../scaffold/markers.js";
import type { Scaffold } from "../../scaffold/scaffold.js";
import type { TemplateFile } from "../../scaffold/template.js";
import { documents, indentAt, insertLinesAfter } from "../../scaffold/yaml-edit.js";
import { ts } from "../../ts/typescript.js";
import type { PluginContext } from "../types.js";
import { conversionFields, type Side, versionSchemas } from "./conversion-stubs.js";
import { fragmentBlock } from "./kustomize-fragments.js";
import { addMakefileFragment } from "./makefile.js";
import { moveStorageVersion, typesFile } from "./storage-version.js";

/**
 * `create webhook --conversion --spoke v1alpha1,v2`, Kubebuilder's hub and spoke in TypeScript:
 * - the hub (the version of --version) becomes the storage version, and its `<kind>_conversion.ts`
 *   joins the spokes into one converter (`hubAndSpokes`);
 * - each spoke's `<kind>_conversion.ts` holds its typed `convertTo(hub)`/`convertFrom(hub)`;
 * - cmd/main.ts serves them at /convert (`webhookManagedBy(mgr, HubKind).withConversion(...)`);
 * - config/crd gets the conversion webhook and cert-manager CA injection patches,
 *   config/default the CRD's CA injection replacements, and config/certrotation's ClusterRole the
 *   CRD by name (the manager sets its conversion caBundle without cert-manager);
 * - a test round-trips each spoke's sample (spoke → hub → spoke).
 */

const SET = "typescript/conversion";

function file(path: string): TemplateFile {
  return { template: `${SET}/${path}.hbs`, set: SET, ifExists: "error" };
}

function pascal(version: string): string {
  return version.charAt(0).toUpperCase() + version.slice(1);
}

/** The kustomize patch files' suffix: `<plural>`, or `<group>_<plural>` in a multigroup project (KB). */
function patchSuffix(r: ResourceModel): string {
  return r.multigroup ? `${r.group}_${r.plural}` : r.plural;
}

/** config/default/kustomization.yaml: the CRD targets of the CA injection replacements (KB's conversion updater). */
function caInjectionTarget(s: Scaffold, crdName: string, index: 0 | 1): string {
  return fragmentBlock(s, "crd-ca-injection-target.yaml.hbs", { crdName, index });
}

/** The CRDs' CA injection sources, as config/default/kustomization.yaml's template renders them (commented). */
function caSources(s: Scaffold): string[] {
  return [
    fragmentBlock(s, "crd-ca-injection-source.yaml.hbs", {
      header: " # Uncomment the following block if you have a ConversionWebhook (--conversion)",
      fieldPath: ".metadata.namespace # Namespace of the certificate CR",
    }),
    fragmentBlock(s, "crd-ca-injection-source.yaml.hbs", { header: "", fieldPath: ".metadata.name" }),
  ];
}

/** The Makefile's migrate-storage target (rewrites stored objects after a storage version change). */
const MIGRATE_STORAGE_FRAGMENT = "typescript/fragments/makefile-migrate-storage.hbs";

const CERT_ROTATION_ROLE = "config/certrotation/cert_rotation_role.yaml";

/**
 * config/certrotation's ClusterRole with get and update on the CRD `crdName`: without cert-manager the
 * manager sets the CA of its conversion webhook. By name, since RBAC cannot limit list and watch by
 * name; the manager needs neither, as it reads exactly the CRDs of the kinds it converts. The rule is
 * found by the YAML parser and only its resourceNames (or, for the first CRD, a new last rule) is
 * written, so the file's comments and indentation stay as they are.
 */
export function grantConversionCABundle(text: string, crdName: string): string {
  const role = documents(CERT_ROTATION_ROLE, text).find((d) => d.get("kind") === "ClusterRole");
  const rules = role?.get("rules", true);
  if (!role || !isSeq(rules) || rules.flow || rules.items.length === 0) {
    throw new KbtsError("config/certrotation has no ClusterRole to grant the conversion webhook's caBundle", {
      where: CERT_ROTATION_ROLE,
      fix: `restore its ClusterRole (kbts scaffolds it with create webhook), or give the manager get and update on customresourcedefinitions named ${crdName} yourself`,
    });
  }
  const items = rules.items as YAMLMap[];
  const crdRule = items.find((rule) => {
    const r = isMap(rule) ? (rule.toJSON() as { apiGroups?: unknown; resources?: unknown }) : {};
    return (
      isDeepStrictEqual(r.apiGroups, ["apiextensions.k8s.io"]) &&
      isDeepStrictEqual(r.resources, ["customresourcedefinitions"])
    );
  });
  const names = crdRule?.get("resourceNames", true);
  if (crdRule && isSeq(names) && names.range) {
    const listed = names.toJSON() as string[];
    if (listed.includes(crdName)) return text;
    const list = [...listed, crdName].sort().map((n) => JSON.stringify(n));
    const [start, end] = names.range;
    return `${text.slice(0, start)}[${list.join(", ")}]${text.slice(end)}`;
  }
  const first = items[0]?.range?.[0] ?? 0;
  const last = items.at(-1)?.range?.[1] ?? first;
  return insertLinesAfter(
    text,
    last - 1,
    indentAt(text, first),
    `# The conversion webhooks' caBundle: the CRDs of the kinds the manager converts, read and updated by
# name (kbts create webhook --conversion adds each one).
- apiGroups: ["apiextensions.k8s.io"]
  resources: ["customresourcedefinitions"]
  resourceNames: [${JSON.stringify(crdName)}]
  verbs: ["get", "update"]`,
  );
}

const E2E_TEST = "test/e2e/e2e.test.ts";

/** The check of a kind's conversion webhook in the e2e suite (a fragment template). */
const CONVERSION_CHECK_FRAGMENT = "typescript/fragments/e2e/conversion-check.ts.hbs";

/**
 * The check test/e2e gets for a kind's conversion webhook: a spoke's sample, stored in the hub's version,
 * reads back in every version the CRD serves (those of a later spoke too). Each write and read is a call
 * from the API server to the deployed /convert, trusting the caBundle cert-manager or the manager
 * injected, and the manager counts them.
 */
function e2eConversionCheck(
  s: Scaffold,
  r: ResourceModel,
  sample: string | undefined,
): { title: string; code: string; sample: string } | undefined {
  if (sample === undefined) return undefined;
  const title = `it("serves ${r.kind} in every version through the conversion webhook"`;
  const code = s.fragment(CONVERSION_CHECK_FRAGMENT, {
    title,
    crd: `${r.plural}.${r.qualifiedGroup}`,
    sample,
    plural: r.plural,
    qualifiedGroup: r.qualifiedGroup,
    kindLower: r.kindLower,
    kind: r.kind,
  });
  return { title, code, sample };
}

/** Whether a TypeScript file imports `name` from `module` (read with TypeScript's parser). */
function importsName(text: string, module: string, name: string): boolean {
  const file = ts.createSourceFile("main.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return file.statements.some((st) => {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) return false;
    const bindings = st.importClause?.namedBindings;
    return (
      st.moduleSpecifier.text === module &&
      bindings !== undefined &&
      ts.isNamedImports(bindings) &&
      bindings.elements.some((e) => e.name.text === name)
    );
  });
}

export async function createConversion(
  ctx: PluginContext,
  r: ResourceModel,
  spokes: string[],
  force: boolean,
  common: Record<string, unknown>,
): Promise<void> {
  const s = ctx.scaffold;
  const schemas = await versionSchemas(s.fs.root, r);
  const hubType = `${r.kind}${pascal(r.version)}`;
  const schemaOf = (version: string) => {
    const schema = schemas.get(version);
    if (schema === undefined) {
      throw new KbtsError(`the CRD of ${r.kind} has no version ${version}`, {
        where: typesFile(r, version),
        fix: `check that ${typesFile(r, version)} declares export interface ${r.kind} under // +kubebuilder:object:root=true`,
      });
    }
    return schema;
  };
  const hub = { version: r.version, typeName: hubType, schema: schemaOf(r.version) };
  const hubApiVersion = r.apiVersion;
  const spokeData = spokes.map((version) => {
    const spoke: Side = { version, typeName: r.kind, schema: schemaOf(version) };
    return {
      spokeVersion: version,
      alias: `${r.kindVar}${pascal(version)}`,
      spokeApiVersion: r.qualifiedGroup === "" ? version : `${r.qualifiedGroup}/${version}`,
      toHub: conversionFields(spoke, hub, "src"),
      fromHub: conversionFields(hub, spoke, "hub"),
      sample: `config/samples/${r.group}_${version}_${r.kindLower}.yaml`,
    };
  });
  const data = {
    ...common,
    hubType,
    hubApiVersion,
    spokes: spokeData,
    webhookDepth: r.groupDir ? "../../../../" : "../../../",
  };
  const opts = { force };
  for (const spoke of spokeData) {
    s.template(
      file("api/{{groupDir}}{{spokeVersion}}/{{kindLower}}_conversion.ts"),
      { ...data, ...spoke },
      opts,
    );
  }
  s.template(file("api/{{groupDir}}{{version}}/{{kindLower}}_conversion.ts"), data, opts);
  s.template(file("internal/webhook/{{groupDir}}{{version}}/{{kindLower}}_conversion.test.ts"), data, opts);

  const suffix = patchSuffix(r);
  const crdName = `${r.plural}.${r.qualifiedGroup}`;
  const patchData = { ...data, crdName, suffix };
  s.template({ ...file("config/crd/patches/webhook_in_{{suffix}}.yaml"), ifExists: "skip" }, patchData);
  s.template({ ...file("config/crd/patches/cainjection_in_{{suffix}}.yaml"), ifExists: "skip" }, patchData);
  s.insert("config/crd/kustomization.yaml", {
    crdkustomizewebhookpatch: [
      `- path: patches/webhook_in_${suffix}.yaml`,
      `- path: patches/cainjection_in_${suffix}.yaml`,
    ],
  });
  s.edit("config/crd/kustomization.yaml", (text) =>
    uncomment(text, "#configurations:\n#- kustomizeconfig.yaml"),
  );
  // Each target goes in commented, to be uncommented with its sources below; one a run before put in
  // and uncommented is there already (the insertion alone would not see it, as it looks for the commented text).
  const defaults = s.fs.read("config/default/kustomization.yaml") ?? "";
  const absent = (block: string) => !hasFragment(defaults, uncomment(block, block));
  const targets = [caInjectionTarget(s, crdName, 0), caInjectionTarget(s, crdName, 1)] as const;
  s.insert("config/default/kustomization.yaml", {
    crdkustomizecainjectionns: [targets[0]].filter(absent),
    crdkustomizecainjectionname: [targets[1]].filter(absent),
  });
  s.edit("config/default/kustomization.yaml", (text) => {
    let out = text;
    for (const block of [...caSources(s), ...targets]) {
      out = uncomment(out, block);
    }
    return out;
  });

  if (!moveStorageVersion(s, ctx.config, r)) {
    throw new KbtsError(`cannot mark ${r.version} as the storage version of ${r.kind}`, {
      where: typesFile(r, r.version),
      fix: `put "// +kubebuilder:object:root=true" back in the comments above export interface ${r.kind}, or add "// +kubebuilder:storageversion" there yourself`,
    });
  }

  addMakefileFragment(s, MIGRATE_STORAGE_FRAGMENT, {});
  s.edit(CERT_ROTATION_ROLE, (text) => grantConversionCABundle(text, crdName));
  const check = e2eConversionCheck(s, r, spokeData[0]?.sample);
  // The formatter rewraps an inserted check, so a re-run finds it by its title, not by its lines.
  const e2e = s.fs.read(E2E_TEST);
  if (check && s.fs.read(check.sample) !== undefined && e2e !== undefined && !e2e.includes(check.title)) {
    s.insert(E2E_TEST, { "e2e-webhooks-checks": [check.code] });
  }

  const api = `../api/${r.groupDir}${r.version}`;
  s.insert("cmd/main.ts", {
    // The project's formatter (biome) merges this into the template's import from @kbts/runtime (it
    // would repeat a name already there, so only when it is not).
    imports: [
      ...(importsName(s.fs.read("cmd/main.ts") ?? "", "@kbts/runtime", "webhookManagedBy")
        ? []
        : [`import { webhookManagedBy } from "@kbts/runtime";`]),
      `import { ${r.kindVar}Spokes } from "${api}/${r.kindLower}_conversion.js";`,
      `import { ${r.kind}Kind } from "${api}/zz_generated.kinds.js";`,
    ],
    builder: [
      `  if (process.env.ENABLE_WEBHOOKS !== "false") {\n    webhookManagedBy(mgr, ${r.kind}Kind)\n      .withConversion(...${r.kindVar}Spokes)\n      .complete();\n  }`,
    ],
  });
  upsertResource(ctx.config, {
    ...resourceEntry(r),
    webhooks: { conversion: true, spoke: spokes, webhookVersion: "v1" },
  });
}
