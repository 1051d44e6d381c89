/**
 * The generated reference cannot leave anything out or undocumented: every marker of the registry
 * needs its help text and gets a section of its own on the markers page, and every command and flag
 * of the CLI needs a description and appears on the commands page.
 */
import { describe, expect, it } from "vitest";
import { cliPage, commandAnchor, commands, visibleOptions } from "./cli.js";
import { markerAnchor, markerDefinitions, markersPage } from "./markers.js";

describe("the marker reference", () => {
  const page = markersPage();

  it("has a help line for every marker", () => {
    const undocumented = markerDefinitions()
      .flat()
      .filter((d) => d.help.trim() === "")
      .map((d) => `+${d.name} [${d.targets.join(", ")}]`);
    expect(undocumented, "give these markers a help text in their definition").toEqual([]);
  });

  it("has a section for every marker, with its help and usage", () => {
    const missing: string[] = [];
    for (const defs of markerDefinitions()) {
      const name = defs[0]!.name;
      const section = page.split(`\n## +${name} {#${markerAnchor(name)}}\n`)[1]?.split("\n## ")[0];
      if (!section) missing.push(`+${name}: no section`);
      for (const d of defs)
        if (section && !section.includes(d.help.replaceAll("<", "&lt;").replaceAll(">", "&gt;")))
          missing.push(`+${name}: no help line`);
    }
    expect(missing).toEqual([]);
    expect(markerDefinitions().length).toBeGreaterThan(80);
  });

  it("gives every marker its own anchor", () => {
    const anchors = markerDefinitions().map((d) => markerAnchor(d[0]!.name));
    expect(new Set(anchors).size).toBe(anchors.length);
  });
});

describe("the command reference", () => {
  const page = cliPage();

  it("has a description for every command, argument and flag", () => {
    const undocumented: string[] = [];
    for (const { path, cmd } of commands()) {
      if (!cmd.description().trim()) undocumented.push(`kbts ${path}`);
      for (const a of cmd.registeredArguments)
        if (!a.description.trim()) undocumented.push(`kbts ${path} <${a.name()}>`);
      for (const o of visibleOptions(cmd))
        if (!o.description.trim()) undocumented.push(`kbts ${path} ${o.flags}`);
    }
    expect(undocumented, "describe these in src/cli/commands/").toEqual([]);
  });

  it("lists every command and every flag under its command", () => {
    const missing: string[] = [];
    for (const { path, cmd } of commands()) {
      const heading = new RegExp(`\\n#{2,3} kbts ${path} \\{#${commandAnchor(path)}\\}\\n`);
      const [, after] = page.split(heading);
      if (after === undefined) {
        missing.push(`kbts ${path}`);
        continue;
      }
      const section = after.split(/\n#{2,3} kbts /)[0] ?? "";
      for (const o of visibleOptions(cmd))
        if (!section.includes(`| \`${o.flags}\` |`)) missing.push(`kbts ${path} ${o.flags}`);
    }
    expect(missing).toEqual([]);
    expect(commands().map((c) => c.path)).toEqual(
      expect.arrayContaining(["init", "create api", "manifests"]),
    );
  });
});
