import type { MarkersAtNode } from "../manifests/checks.js";
import { ts } from "../ts/typescript.js";
import { nodeWhere } from "../ts/where.js";
import { type SchemaSite, type SchemaSites, siteKey } from "./compare.js";

/**
 * Where today's schema nodes come from: the markers at each node (an `items:` marker at its items)
 * and the declarations, so a breaking change can name the marker that made it. Fed by
 * generateManifests' `visitMarkers`.
 */
export function siteCollector(root: string): { sites: SchemaSites; visit: (node: MarkersAtNode) => void } {
  const sites: SchemaSites = new Map();
  const at = (crd: string, version: string, path: string): SchemaSite => {
    const key = siteKey(crd, version, path);
    let site = sites.get(key);
    if (!site) {
      site = { markers: [] };
      sites.set(key, site);
    }
    return site;
  };
  const where = (node: ts.Node): string => nodeWhere(root, node);
  const visit = (node: MarkersAtNode): void => {
    const site = at(node.crd, node.version, node.path);
    for (const m of node.markers.all) {
      const target = m.def.schema?.items ? at(node.crd, node.version, `${node.path}[*]`) : site;
      if (!target.markers.includes(m)) target.markers.push(m);
    }
    if (ts.isPropertySignature(node.decl)) site.field ??= where(node.decl.name);
    else if (ts.isInterfaceDeclaration(node.decl) || ts.isTypeAliasDeclaration(node.decl)) {
      site.type ??= where(node.decl.name);
    }
  };
  return { sites, visit };
}
