/**
 * `kbts edit --namespaced[=false]`: what init --namespaced would have written, carried into an existing
 * project. Kubebuilder's edit rewrites the RBAC files and (with --force) manager.yaml, and leaves
 * cmd/main.go and the controllers' RBAC markers to the user. kbts renders each affected template for
 * the old and the new setting and applies the difference as a patch, so cmd/main.ts and the
 * controllers change too while every line the user or another command wrote stays. A file whose
 * edits overlap the change is a conflict: nothing is written, unless --force, which then overwrites
 * only scaffold-owned config files and still never rewrites code.
 */
import { KbtsError } from "../errors.js";
import {
  CONTROLLER_TEMPLATE as DEPLOY_IMAGE_CONTROLLER_TEMPLATE,
  deployImageData,
} from "../plugins/deployimage/index.js";
import { deployImageResources, recordedImageOptions } from "../plugins/deployimage/record.js";
import { GPU_BUDGET_PLUGIN_KEY } from "../plugins/gpu-budget/index.js";
import { foreignModel, resolveKindSource } from "../plugins/typescript/kind-source.js";
import {
  controllerData,
  FOREIGN_CONTROLLER_SET,
  foreignControllerData,
  projectInitData,
  resourceData,
} from "../plugins/typescript/plugin.js";
import { type ProjectConfig, type Resource, sameGVK } from "../project/config.js";
import { resourceModel } from "../project/resource.js";
import type { Scaffold } from "../scaffold/scaffold.js";
import { Renderer, type TemplateFile } from "../scaffold/template.js";
import { carryTemplateChange } from "../scaffold/template-change.js";

export interface NamespacedEdit {
  /** Files changed (staged in the scaffold's tree). */
  changed: string[];
  /** With --force: code files whose edits overlap the change, with the patch to apply by hand. */
  byHand: { path: string; patch: string }[];
}

/**
 * One template whose render depends on the setting. `owner` says what a conflict means: "config" is
 * scaffold-owned (--force overwrites it), "code" is the user's (never overwritten), "generated" is
 * rewritten by `kbts manifests` anyway (a conflict there is left for it).
 */
interface Affected {
  file: TemplateFile;
  data: (config: ProjectConfig) => object;
  owner: "config" | "code" | "generated";
}

const INIT = "typescript/init";
const API = "typescript/api";
const tmpl = (set: string, path: string): TemplateFile => ({ template: `${set}/${path}.hbs`, set });

async function affectedFiles(root: string, config: ProjectConfig): Promise<Affected[]> {
  const init = (path: string, owner: Affected["owner"]): Affected => ({
    file: tmpl(INIT, path),
    data: (c) => projectInitData(c),
    owner,
  });
  const out: Affected[] = [
    init("config/rbac/role.yaml", "generated"),
    init("config/rbac/role_binding.yaml", "config"),
    init("config/manager/manager.yaml", "config"),
    init("cmd/main.ts", "code"),
  ];
  // The project's own kinds: their admin/editor/viewer roles and their controllers' RBAC markers;
  // built-in and external kinds: their controllers' RBAC markers.
  for (const r of config.resources ?? []) {
    if (r.core || r.external) {
      for (const name of namedControllers(r)) out.push(await foreignController(root, config, r, name));
      continue;
    }
    const model = (c: ProjectConfig) =>
      resourceModel(c, {
        group: r.group,
        version: r.version,
        kind: r.kind,
        plural: r.plural,
        namespaced: r.api?.namespaced,
      });
    const data = (c: ProjectConfig) => resourceData({ config: c }, model(c));
    if (r.api) {
      for (const role of ["admin", "editor", "viewer"]) {
        out.push({
          file: tmpl(API, `config/rbac/{{rbacFilePrefix}}{{kindLower}}_${role}_role.yaml`),
          data,
          owner: "config",
        });
      }
    }
    const image = recordedImageOptions(deployImageResources(config.plugins).find((e) => sameGVK(e, r)));
    for (const name of namedControllers(r)) {
      if (image && name === undefined) {
        // deploy-image/v1-alpha's controller, rendered as that plugin did.
        out.push({
          file: DEPLOY_IMAGE_CONTROLLER_TEMPLATE,
          data: (c) => deployImageData({ config: c }, model(c), image),
          owner: "code",
        });
        continue;
      }
      out.push({
        file: tmpl(API, "internal/controller/{{groupDir}}{{controllerFile}}_controller.ts"),
        data: (c) => {
          const d = data(c);
          return { ...d, ...controllerData(d, name) };
        },
        owner: "code",
      });
    }
  }
  return out;
}

/**
 * The controller of a built-in or external kind (create api --resource=false --controller): its RBAC
 * markers carry the namespace too. Its kind is resolved as create api resolved it, from PROJECT's
 * path, domain and module (an external kind's CRD file is read again, nothing is generated).
 */
async function foreignController(
  root: string,
  config: ProjectConfig,
  r: Resource,
  name: string | undefined,
): Promise<Affected> {
  const flags = { group: r.group, version: r.version, kind: r.kind };
  const source = await resolveKindSource(root, config, flags, r);
  return {
    file: tmpl(FOREIGN_CONTROLLER_SET, "internal/controller/{{groupDir}}{{controllerFile}}_controller.ts"),
    data: (c) => {
      const model = foreignModel(c, flags, source);
      return { ...foreignControllerData({ config: c }, model, source), ...controllerData(model, name) };
    },
    owner: "code",
  };
}

/** The controllers of a resource, each by its --controller-name (undefined: the kind's own, unnamed). */
function namedControllers(r: Resource): (string | undefined)[] {
  return r.controllers?.length ? r.controllers.map((c) => c.name) : r.controller ? [undefined] : [];
}

export async function editNamespaced(
  scaffold: Scaffold,
  config: ProjectConfig,
  namespaced: boolean,
  force: boolean,
): Promise<NamespacedEdit> {
  if (namespaced && config.plugins?.[GPU_BUDGET_PLUGIN_KEY] !== undefined) {
    throw new KbtsError("the GPUBudget operator cannot be namespaced", {
      where: "--namespaced",
      fix: `the ${GPU_BUDGET_PLUGIN_KEY} plugin counts pods and labels namespaces cluster-wide: keep this project cluster-scoped`,
    });
  }
  const renderer = new Renderer();
  const before: ProjectConfig = { ...config, namespaced: !namespaced || undefined };
  const after: ProjectConfig = { ...config, namespaced: namespaced || undefined };
  const changed: string[] = [];
  const conflicts: { path: string; patch: string; affected: Affected }[] = [];
  const seen = new Set<string>();
  for (const a of await affectedFiles(scaffold.fs.root, config)) {
    const path = renderer.outputPath(a.file, a.data(after));
    if (seen.has(path)) continue;
    seen.add(path);
    const current = scaffold.fs.read(path);
    if (current === undefined) continue;
    const old = renderer.render(a.file.template, a.data(before));
    const next = renderer.render(a.file.template, a.data(after));
    const carried = carryTemplateChange(path, current, old, next);
    if (carried.outcome === "applied") {
      scaffold.fs.write(path, carried.text);
      changed.push(path);
    } else if (carried.outcome === "conflict" && a.owner !== "generated") {
      conflicts.push({ path, patch: carried.patch, affected: a });
    }
  }
  if (conflicts.length > 0 && !force) {
    throw new KbtsError(
      `your edits overlap what --namespaced=${namespaced} changes in ${conflicts.map((c) => c.path).join(", ")}`,
      {
        where: conflicts[0]?.path,
        fix: "nothing was written: apply these changes by hand, or pass --force to overwrite those config files (code such as cmd/main.ts is never overwritten; its change is then printed)",
      },
    );
  }
  const byHand: NamespacedEdit["byHand"] = [];
  for (const c of conflicts) {
    if (c.affected.owner === "code") {
      byHand.push({ path: c.path, patch: c.patch });
    } else {
      scaffold.fs.write(c.path, renderer.render(c.affected.file.template, c.affected.data(after)));
      changed.push(c.path);
    }
  }
  return { changed, byHand };
}
