import { ts } from "../ts/typescript.js";

/** What a type reference names: a @kbts/runtime type, a TypeScript library type, or a declaration. */
export type RefTarget =
  | { kind: "runtime"; name: string }
  | { kind: "lib"; name: string }
  | { kind: "decl"; decl: ts.Declaration; name: string }
  | { kind: "unresolved"; name: string };

const RUNTIME_MODULE = /^@kbts\/runtime(\/|$)/;
const isRuntimeFile = (f: string) => /[/\\](runtime[/\\]src|node_modules[/\\]@kbts[/\\]runtime)[/\\]/.test(f);
const isLibFile = (f: string) => /[/\\]lib\.[\w.]*\.d\.ts$|^\/node_modules\/typescript\/lib\//.test(f);

/**
 * Resolves the name of a type reference. Types imported from "@kbts/runtime" are known by their
 * exported name, without loading the runtime's sources (the import alone says what they are).
 */
export function resolveTypeName(checker: ts.TypeChecker, typeName: ts.EntityName): RefTarget {
  const name = ts.isIdentifier(typeName) ? typeName.text : typeName.right.text;
  let symbol = checker.getSymbolAtLocation(typeName);
  if (!symbol) return { kind: "unresolved", name };
  for (let i = 0; i < 10 && symbol.flags & ts.SymbolFlags.Alias; i++) {
    const decl = symbol.declarations?.[0];
    if (decl && ts.isImportSpecifier(decl)) {
      const spec = decl.parent.parent.parent.moduleSpecifier;
      if (ts.isStringLiteral(spec) && RUNTIME_MODULE.test(spec.text)) {
        return { kind: "runtime", name: (decl.propertyName ?? decl.name).text };
      }
    }
    if (decl && ts.isNamespaceImport(decl)) {
      const spec = decl.parent.parent.moduleSpecifier;
      if (ts.isStringLiteral(spec) && RUNTIME_MODULE.test(spec.text)) return { kind: "runtime", name };
    }
    const next = checker.getAliasedSymbol(symbol);
    if (next === symbol || !next) break;
    symbol = next;
  }
  const decl = symbol.declarations?.[0];
  if (!decl) return { kind: "unresolved", name };
  const file = decl.getSourceFile().fileName;
  if (isRuntimeFile(file)) return { kind: "runtime", name: symbol.getName() };
  if (isLibFile(file) || decl.getSourceFile().hasNoDefaultLib) return { kind: "lib", name: symbol.getName() };
  return { kind: "decl", decl, name: symbol.getName() };
}
