import { describe, expect, it } from "vitest";
import type { ProjectConfig } from "../project/config.js";
import {
  type CompletionSources,
  complete,
  completionScript,
  DIRECTIVE_DEFAULT,
  DIRECTIVE_NO_FILES,
  formatCompletion,
} from "./completion.js";
import { buildProgram } from "./main.js";

const PROJECT: ProjectConfig = {
  version: "3",
  domain: "example.com",
  resources: [
    { group: "ship", version: "v1", kind: "Frigate" },
    { group: "ship", version: "v2", kind: "Frigate" },
    { group: "sea", version: "v1beta1", kind: "Captain" },
  ],
};

const sources = (project: ProjectConfig | undefined = PROJECT): CompletionSources => ({
  plugins: () => [
    { key: "typescript/v1", description: "base", commands: ["init", "create api", "create webhook"] },
    { key: "gpu-budget/v1-alpha", description: "gpu\nsecond line", commands: ["create api"] },
    { key: "helm/v2-alpha", description: "chart", commands: ["init", "edit"] },
  ],
  project: () => project,
});

const program = buildProgram();
/** The candidates' values for a command line; the last word is the one being completed. */
const values = (line: string, project?: ProjectConfig) =>
  complete(program, line.split(" "), sources(project)).candidates.map((c) => c.value);

describe("completion candidates", () => {
  it("offers the program's commands and subcommands, never the hidden callback", () => {
    const top = values("");
    expect(top).toEqual(expect.arrayContaining(["init", "create", "edit", "alpha", "completion", "help"]));
    expect(top).not.toContain("__complete");
    expect(values("cr")).toEqual(["create"]);
    expect(values("create ")).toEqual(["api", "webhook"]);
    expect(values("alpha ")).toContain("generate");
    expect(values("completion ")).toEqual(["bash", "zsh", "fish", "powershell"]);
    expect(values("help c")).toEqual(["create", "completion"]);
    expect(complete(program, ["create", ""], sources()).candidates[0]).toEqual({
      value: "api",
      description: "Scaffold a Kubernetes API: types, controller, tests, samples, RBAC and CRD kustomization",
    });
  });

  it("offers a command's flags, without those already given except the list flag --plugins", () => {
    expect(values("create api --gr")).toEqual(["--group"]);
    const rest = values("create api --group ship --plugins a --");
    expect(rest).not.toContain("--group");
    expect(rest).toContain("--plugins");
    expect(rest).toContain("--kind");
    expect(rest).toContain("--external-api-path");
    // A leaf command with nothing typed: its flags, not files.
    const edit = complete(program, ["edit", ""], sources());
    expect(edit.directive).toBe(DIRECTIVE_NO_FILES);
    expect(edit.candidates.map((c) => c.value)).toEqual(
      expect.arrayContaining(["--license", "--owner", "--license-file", "--multigroup"]),
    );
    expect(values("--v")).toEqual(["--version"]);
  });

  it("offers --plugins keys that have the subcommand, one key of a comma list at a time", () => {
    expect(values("create api --plugins ")).toEqual(["typescript/v1", "gpu-budget/v1-alpha"]);
    expect(values("edit --plugins ")).toEqual(["helm/v2-alpha"]);
    expect(values("init --plugins typescript/v1,")).toEqual(["typescript/v1,helm/v2-alpha"]);
    expect(values("create api --plugins=g")).toEqual(["--plugins=gpu-budget/v1-alpha"]);
    const described = complete(program, ["create", "api", "--plugins", "g"], sources()).candidates;
    expect(described).toEqual([{ value: "gpu-budget/v1-alpha", description: "gpu" }]);
  });

  it("offers PROJECT's groups, versions and kinds to create, narrowed by the flags given", () => {
    expect(values("create api --group ")).toEqual(["sea", "ship"]);
    expect(values("create webhook --group ship --kind ")).toEqual(["Frigate"]);
    expect(values("create webhook --kind Frigate --version ")).toEqual(["v1", "v2"]);
    expect(values("create webhook --group=sea --version=")).toEqual(["--version=v1beta1"]);
    expect(values("create api --kind C")).toEqual(["Captain"]);
    expect(values("create api --kind ", { version: "3" })).toEqual([]);
    const noProject = { ...sources(), project: () => undefined };
    expect(complete(program, ["create", "api", "--kind", ""], noProject).candidates).toEqual([]);
  });

  it("offers the values a flag takes, and file names only for a path", () => {
    expect(values("edit --license ")).toEqual(["apache2", "MIT", "copyright", "none"]);
    expect(values("init --license ")).toEqual(["apache2", "none"]);
    expect(values("create api --resource=")).toEqual(["--resource=true", "--resource=false"]);
    expect(values("init --runtime ")).toEqual(["vendor", "link", "registry"]);
    const path = complete(program, ["edit", "--license-file", ""], sources());
    expect(path).toEqual({ candidates: [], directive: DIRECTIVE_DEFAULT });
    const free = complete(program, ["init", "--domain", ""], sources());
    expect(free).toEqual({ candidates: [], directive: DIRECTIVE_NO_FILES });
    // A flag's value is not taken for a command: after it, the command's flags again.
    expect(values("init --domain init --o")).toEqual(["--owner"]);
    expect(complete(program, ["setup-envtest", "use", ""], sources()).directive).toBe(DIRECTIVE_DEFAULT);
  });

  it("prints candidates, descriptions after a tab, then the directive", () => {
    expect(
      formatCompletion({ candidates: [{ value: "a", description: "first" }, { value: "b" }], directive: 4 }),
    ).toBe("a\tfirst\nb\n:4\n");
    for (const shell of ["bash", "zsh", "fish", "powershell"] as const) {
      expect(completionScript(shell), shell).toContain("__complete");
    }
  });
});
