import { Project, ts } from "ts-morph";
import { KbtsError } from "../errors.js";
import { nodeWhere } from "../ts/where.js";

export interface FloatingPromise {
  /** file:line:col, relative to the project root. */
  where: string;
  /** The expression, shortened. */
  text: string;
}

export function findFloatingPromises(root: string): FloatingPromise[] {
  const configPath = ts.findConfigFile(root, ts.sys.fileExists, "tsconfig.json");
  if (!configPath) {
    throw new KbtsError(`no tsconfig.json in ${root}`, { fix: "run kbts lint in the project's root" });
  }
  // ts-morph's Project carries TypeScript's lib files (Promise, ...) in memory: a floating promise is
  // found by its type, which loading/program.ts's parse-only program does not have.
  const project = new Project({ tsConfigFilePath: configPath, compilerOptions: { noEmit: true } });
  const program = project.getProgram().compilerObject;
  const checker = program.getTypeChecker();
  const found: FloatingPromise[] = [];

  const isThenable = (type: ts.Type): boolean => {
    if (type.isUnion()) return type.types.some(isThenable);
    const then = checker.getPropertyOfType(type, "then");
    if (!then) return false;
    const decl = then.valueDeclaration ?? then.declarations?.[0];
    if (!decl) return false;
    return checker.getTypeOfSymbolAtLocation(then, decl).getCallSignatures().length > 0;
  };
  const stored = (expr: ts.Expression): boolean =>
    ts.isBinaryExpression(expr) &&
    expr.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    expr.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
  const handled = (expr: ts.Expression): boolean => {
    if (!ts.isCallExpression(expr) || !ts.isPropertyAccessExpression(expr.expression)) return false;
    const method = expr.expression.name.text;
    return method === "catch" || (method === "then" && expr.arguments.length >= 2);
  };

  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || sf.fileName.includes("/node_modules/")) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isExpressionStatement(node)) {
        const expr = node.expression;
        if (
          !ts.isVoidExpression(expr) &&
          !stored(expr) &&
          !handled(expr) &&
          isThenable(checker.getTypeAtLocation(expr))
        ) {
          const text = expr.getText(sf).replace(/\s+/g, " ");
          found.push({
            where: nodeWhere(root, expr),
            text: text.length > 80 ? `${text.slice(0, 77)}...` : text,
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

/** `kbts lint`: fails, listing each one, when the project has floating promises. */
export function runLint(root = process.cwd()): void {
  const found = findFloatingPromises(root);
  if (found.length === 0) {
    process.stdout.write("no floating promises\n");
    return;
  }
  for (const f of found) {
    process.stderr.write(
      `${f.where}: floating promise: ${f.text}\n  fix: await it (or return it; \`void\` drops it on purpose)\n`,
    );
  }
  throw new KbtsError(`${found.length} floating promise(s): a forgotten await loses the call's error`, {
    fix: "add await before each call listed above",
  });
}
