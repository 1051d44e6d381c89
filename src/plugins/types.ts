import type { ProjectConfig } from "../project/config.js";
import type { ResourceModel } from "../project/resource.js";
import type { Scaffold } from "../scaffold/scaffold.js";
import type { KindSource } from "./typescript/kind-source.js";

/**
 * A scaffolding plugin, as Kubebuilder's: a bundle of subcommands, each contributing templates and
 * edits to one staged scaffold. Plugins never write to disk; the command validates, runs every plugin
 * of the chain, then flushes once.
 */
/** The license headers kbts writes: Kubebuilder's `apache2` and `copyright` (no body), `MIT`, `none`. */
export type License = "apache2" | "MIT" | "copyright" | "none";

export interface InitOptions {
  domain: string;
  repo: string;
  projectName: string;
  owner?: string;
  license: License;
  /** A license header used as it is (init --license-file, or alpha generate keeping the project's). */
  licenseText?: string;
  multigroup: boolean;
  /** Kubebuilder's --namespaced: Role/RoleBinding, WATCH_NAMESPACE, `namespace=` on RBAC markers. */
  namespaced: boolean;
  /** npm specs for @kbts/runtime and kbts in the generated package.json. */
  runtimeSpec: string;
  kbtsSpec: string;
  /** The project folder holding kbts' vendored tarballs (`--runtime vendor`), else undefined. */
  vendorDir?: string;
  year: string;
}

export interface ApiOptions {
  resource: boolean;
  controller: boolean;
  force: boolean;
  /** --controller-name: the controller's name, when the kind gets a named one (else the kind's own). */
  controllerName?: string;
  /** A controller for a kind the project does not own (built-in or external): where its type comes from. */
  source?: KindSource;
  /** deploy-image/v1-alpha's flags: the image the controller deploys, and how its container runs. */
  image?: ImageOptions;
}

/** `create api --image ... --image-container-command ... --image-container-port ... --run-as-user ...` */
export interface ImageOptions {
  image: string;
  /** Comma-separated: "memcached,--memory-limit=64,-o,modern,-v". */
  command?: string;
  port?: string;
  runAsUser?: string;
}

export interface WebhookOptions {
  defaulting: boolean;
  validation: boolean;
  force: boolean;
  /**
   * A conversion webhook: the resource's version is the hub (the storage version), and each of
   * `spokes` (other versions of the kind, in PROJECT) converts to and from it.
   */
  conversion?: boolean;
  spokes?: string[];
  /** --defaulting-path/--validation-path: the admission webhooks' paths, when not the generated ones. */
  defaultingPath?: string;
  validationPath?: string;
  /** A webhook for an external kind (--external-api-path, or one made by create api so): where its type comes from. */
  source?: KindSource;
}

/** `kbts edit --plugins <key>` options (Kubebuilder's helm/v2-alpha flags). */
export interface EditOptions {
  /** Regenerate files the user may have edited (values.yaml, ...); Chart.yaml is never overwritten. */
  force: boolean;
  /** The kustomize output to read (--manifests). */
  manifests?: string;
  /** Where the output goes (--output-dir). */
  outputDir?: string;
}

export interface PluginContext {
  scaffold: Scaffold;
  /** PROJECT as it will be written; plugins update it (the command writes it last). */
  config: ProjectConfig;
}

export interface Plugin {
  /** "typescript.kbts.dev/v1": `<name>/<version>`, as recorded in PROJECT. */
  readonly key: string;
  readonly description: string;
  init?(ctx: PluginContext, options: InitOptions): void | Promise<void>;
  createApi?(ctx: PluginContext, resource: ResourceModel, options: ApiOptions): void | Promise<void>;
  createWebhook?(ctx: PluginContext, resource: ResourceModel, options: WebhookOptions): void | Promise<void>;
  /** `kbts edit --plugins <key>`: returns what to do next. */
  edit?(ctx: PluginContext, options: EditOptions): string | Promise<string>;
}
