import { createRequire } from "node:module";
import type { ts as TS } from "ts-morph";
import { runCachedCommonJs } from "./code-cache.js";

/**
 * TypeScript's compiler: the copy ts-morph bundles (so its version is ts-morph's), loaded as CommonJS.
 * An ESM `import { ts } from "ts-morph"` makes Node scan ts-morph's 1 MB of CommonJS for export names
 * and load its 4 MB of wrappers that generation never uses; that, and compiling the 9 MB compiler
 * without a code cache, was most of a cold `kbts manifests` (issue 14).
 */
const fromTsMorph = createRequire(createRequire(import.meta.url).resolve("ts-morph"));
export const ts: typeof TS = runCachedCommonJs(
  fromTsMorph.resolve("@ts-morph/common/dist/typescript.js"),
) as typeof TS;

/** The compiler's types used by kbts, by their usual names (`ts.SourceFile`); add one when needed. */
export declare namespace ts {
  export type ArrayTypeNode = TS.ArrayTypeNode;
  export type ArrowFunction = TS.ArrowFunction;
  export type Block = TS.Block;
  export type CallExpression = TS.CallExpression;
  export type CommentRange = TS.CommentRange;
  export type CompilerHost = TS.CompilerHost;
  export type CompilerOptions = TS.CompilerOptions;
  export type Declaration = TS.Declaration;
  export type Diagnostic = TS.Diagnostic;
  export type EntityName = TS.EntityName;
  export type EnumDeclaration = TS.EnumDeclaration;
  export type EnumMember = TS.EnumMember;
  export type Expression = TS.Expression;
  export type FunctionDeclaration = TS.FunctionDeclaration;
  export type FunctionExpression = TS.FunctionExpression;
  export type Identifier = TS.Identifier;
  export type IndexInfo = TS.IndexInfo;
  export type InterfaceDeclaration = TS.InterfaceDeclaration;
  export type LanguageVariant = TS.LanguageVariant;
  export type LiteralTypeNode = TS.LiteralTypeNode;
  export type MethodDeclaration = TS.MethodDeclaration;
  export type ModuleKind = TS.ModuleKind;
  export type ModuleResolutionKind = TS.ModuleResolutionKind;
  export type NamedDeclaration = TS.NamedDeclaration;
  export type Node = TS.Node;
  export type ParenthesizedTypeNode = TS.ParenthesizedTypeNode;
  export type Program = TS.Program;
  export type PropertySignature = TS.PropertySignature;
  export type ResolvedModule = TS.ResolvedModule;
  export type ScriptTarget = TS.ScriptTarget;
  export type SourceFile = TS.SourceFile;
  export type Statement = TS.Statement;
  export type Symbol = TS.Symbol;
  export type SymbolFlags = TS.SymbolFlags;
  export type SyntaxKind = TS.SyntaxKind;
  export type Type = TS.Type;
  export type TypeAliasDeclaration = TS.TypeAliasDeclaration;
  export type TypeChecker = TS.TypeChecker;
  export type TypeNode = TS.TypeNode;
  export type TupleTypeNode = TS.TupleTypeNode;
  export type TypeOperatorNode = TS.TypeOperatorNode;
  export type TypeReference = TS.TypeReference;
  export type TypeReferenceNode = TS.TypeReferenceNode;
  export type UnionTypeNode = TS.UnionTypeNode;
}
